#if os(Linux)
  import Glibc

  /// Linux's folder watch: the kernel tells, through an inotify descriptor the event loop sleeps on,
  /// when files in the folder change, so an idle storefront uses no CPU. While the folder does not
  /// exist yet, its nearest existing ancestor is watched for creations, so the watch moves onto the
  /// folder as soon as it appears.
  final class InotifyFolderWatch {
    private static let folderEvents = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
    private static let ancestorEvents = UInt32(IN_CREATE | IN_MOVED_TO)

    private let path: String
    private let descriptor: Int32
    private var folderWatch: Int32?
    private var ancestorWatch: (descriptor: Int32, path: String)?

    /// Nil when there is no folder to watch or inotify is unavailable.
    init?(path: String?) {
      guard let path, !path.isEmpty else { return nil }
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      self.path = path
      self.descriptor = descriptor
      _ = retry()
    }

    deinit { close(descriptor) }

    /// The descriptor to poll.
    var pollDescriptor: Int32 { descriptor }

    /// Tries to watch the folder itself if that is not yet done; true when the watch was just placed.
    func retry() -> Bool {
      guard folderWatch == nil else { return false }
      let watch = inotify_add_watch(descriptor, path, Self.folderEvents | UInt32(IN_ONLYDIR))
      if watch >= 0 {
        folderWatch = watch
        dropAncestorWatch()
        return true
      }
      watchNearestAncestor()
      return false
    }

    /// Reads every pending event; true when the folder's contents changed or it appeared or vanished.
    func drain() -> Bool {
      var changed = false
      var sawAncestor = false
      let capacity = 4096
      let buffer = UnsafeMutableRawPointer.allocate(
        byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        if count <= 0 { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          offset += MemoryLayout<inotify_event>.size + Int(event.len)
          if event.wd == folderWatch {
            changed = true
            // The folder was deleted or moved away: fall back to waiting for it to come back.
            if event.mask & UInt32(IN_IGNORED) != 0 { folderWatch = nil }
          } else if event.wd == ancestorWatch?.descriptor {
            sawAncestor = true
          }
        }
      }
      if folderWatch == nil || sawAncestor { changed = retry() || changed }
      return changed
    }

    private func watchNearestAncestor() {
      var ancestor = parent(of: path)
      while true {
        if ancestorWatch?.path == ancestor { return }
        let watch = inotify_add_watch(descriptor, ancestor, Self.ancestorEvents | UInt32(IN_ONLYDIR))
        if watch >= 0 {
          dropAncestorWatch()
          ancestorWatch = (watch, ancestor)
          return
        }
        if ancestor == "/" || ancestor == "." { return }
        ancestor = parent(of: ancestor)
      }
    }

    private func dropAncestorWatch() {
      guard let watch = ancestorWatch else { return }
      _ = inotify_rm_watch(descriptor, watch.descriptor)
      ancestorWatch = nil
    }

    private func parent(of path: String) -> String {
      var trimmed = path
      while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
      guard let slash = trimmed.lastIndex(of: "/") else { return "." }
      return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
  }
#endif
