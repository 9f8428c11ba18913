import Foundation
import MonkeyShopStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a report (`--junit PATH`) goes, made ready before any walkthrough runs: its missing
/// folders are created, and a place it cannot be written to is refused then, not after the run.
public enum ReportFile {
  /// Why a report cannot be written at a path; the message names the path and what is in the way.
  public struct PlaceError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path): \(problem)" }
  }

  /// Creates the folders `path` needs and checks that a file can be written there (`OutputFile`'s
  /// rule). `example` is a file name the messages suggest.
  public static func prepare(
    _ path: String, example: String = "build/walkthroughs.xml", dataFolder: DataFolder
  ) throws(PlaceError) {
    if let problem = OutputFile.obstacle(at: path, example: example, dataFolder: dataFolder) {
      throw PlaceError(path: path, problem: problem)
    }
    let folder = OutputFile.folder(of: path)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw PlaceError(path: path, problem: "cannot create the folder \(folder): \(whyNotCreated(folder))")
    }
    // The report is written to a new file in the folder and renamed over `path`: try just that.
    let name = (path as NSString).lastPathComponent
    let probe = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).probe")
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw PlaceError(path: path, problem: "cannot write in the folder \(folder): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    unlink(probe)
  }

  /// The first part of `folder` that is a file, or the system's reason.
  private static func whyNotCreated(_ folder: String) -> String {
    var ancestor = folder
    while !ancestor.isEmpty, ancestor != "/" {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isFolder) {
        return isFolder.boolValue ? "\(ancestor) cannot be written to" : "\(ancestor) is a file, not a folder"
      }
      ancestor = (ancestor as NSString).deletingLastPathComponent
    }
    return "the folder cannot be created"
  }
}
