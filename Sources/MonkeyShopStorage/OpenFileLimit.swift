#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's soft limit on open files (`ulimit -n`): what bounds the server's connections, and
/// what the notification sender names when it has no descriptor left for one.
public enum OpenFileLimit {
  public static var current: Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 1024 }
    // No limit (RLIM_INFINITY, all bits set) reads as the largest value there is.
    return Int(clamping: limit.rlim_cur)
  }
}
