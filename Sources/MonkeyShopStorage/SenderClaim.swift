import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The right to send a data folder's App Store Server Notifications: an exclusive `flock` on
/// `notification-sender.lock`, held by one `monkeyshop server` for as long as it sends. Two servers
/// on one folder would otherwise both send each notification, and the developer's server would get
/// every one twice; the second waits instead, and takes over when the first stops. The kernel drops
/// the lock when the process ends, however it ends (`kill -9` too), so a claim is never left behind.
public final class SenderClaim: Sendable {
  private let descriptor: Int32
  private let folderPath: String

  fileprivate init(descriptor: Int32, folderPath: String) {
    self.descriptor = descriptor
    self.folderPath = folderPath
  }

  deinit { close(descriptor) }

  /// Whether the lock file this claim holds is still the folder's: one deleted, or replaced with
  /// its folder (`rm -rf` and a new folder), no longer keeps another server from sending, so the
  /// claim no longer holds. The `DataFileError` of a folder that cannot be opened to tell (its
  /// `openingError` `EMFILE` or `ENFILE` when no file descriptor is left): that is no answer, and
  /// the claim is kept until one is.
  public func holds() throws(DataFileError) -> Bool {
    var held = stat()
    guard fstat(descriptor, &held) == 0 else { return false }
    return
      try DataFolder(path: folderPath).opened { folder throws(DataFileError) -> Bool in
        var named = stat()
        guard fstatat(folder, DataFolder.senderLockName, &named, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return named.st_dev == held.st_dev && named.st_ino == held.st_ino
      } == true
  }
}

/// Another process sends this folder's notifications.
public struct SenderBusy: Error, Equatable, CustomStringConvertible {
  public let holder: String
  public var description: String {
    "another monkeyshop server sends this folder's notifications: \(holder); this one sends them once it stops"
  }
}

extension DataFolder {
  public static let senderLockName = "notification-sender.lock"

  /// Claims the sending of the folder's notifications; `SenderBusy` naming the holder when another
  /// process has it, nil when the folder does not exist yet.
  public func claimSending() throws -> Result<SenderClaim, SenderBusy>? {
    try opened { folder throws(DataFileError) -> Result<SenderClaim, SenderBusy> in
      let file = self.file(Self.senderLockName, in: folder)
      let fd = openat(folder, Self.senderLockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw file.problem(opening: errno) }
      var info = stat()
      guard fstat(fd, &info) == 0 else {
        close(fd)
        throw file.failure("cannot be examined")
      }
      guard info.st_mode & S_IFMT == S_IFREG else {
        close(fd)
        try file.checkRegular(info)
        throw file.failure("is not a regular file")
      }
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
        let code = errno
        defer { close(fd) }
        guard code == EWOULDBLOCK else {
          throw DataFileError(path: file.path, problem: "cannot be locked: \(String(cString: strerror(code)))")
        }
        return .failure(SenderBusy(holder: FolderLock.holder(of: fd)))
      }
      // Locked, but perhaps a file another process deleted (or replaced) between the open and the
      // lock: only the file the folder names counts.
      let claim = SenderClaim(descriptor: fd, folderPath: path)
      guard try claim.holds() else {
        return .failure(SenderBusy(holder: "another monkeyshop server, which has just replaced the lock file"))
      }
      return .success(claim)
    }
  }
}
