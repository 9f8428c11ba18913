import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `strace`, to count the system calls a command makes in its data folder and to kill it at any one
/// of them (`-e inject=SYSCALL:signal=KILL:when=K`).
///
/// What was checked on strace 6.1 before relying on it:
/// - `-P PATH` matches a path exactly (a folder does not match the files in it), and follows
///   descriptors: `write(4</data/wallet.json.tmp>, …)` matches `-P /data/wallet.json.tmp`;
/// - with `-P`, the calls it filters out do not count towards `when=K`: `when=1` on `write` kills at
///   the first write into the data folder, not at the first write to standard output;
/// - a signal injected on entry is delivered before the call runs: a KILL at a `rename` means the
///   rename did not happen;
/// - the count is per system call and per thread (strace's "tracee").
enum Strace {
  /// The system calls that read or change the data folder. `?` lets strace ignore a name the
  /// architecture lacks (aarch64 has no `rename`, `unlink`, `mkdir`, `link`).
  static let syscalls = [
    "openat", "open", "creat", "write", "pwrite64", "writev", "ftruncate", "fsync", "fdatasync", "rename",
    "renameat", "renameat2", "unlink", "unlinkat", "link", "linkat", "symlink", "symlinkat", "mkdir",
    "mkdirat", "flock", "fcntl",
  ]
  static var traceExpression: String { "trace=" + syscalls.map { "?" + $0 }.joined(separator: ",") }

  static let executable: String? = Tools.strace

  /// nil when strace runs and can trace a child here; else why not (missing, or ptrace refused,
  /// as in a container without CAP_SYS_PTRACE or with Yama's ptrace_scope 3).
  static let unavailableReason: String? = {
    guard let executable else { return Tools.missing("strace", for: "the crash-point sweep").description }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("strace-probe-\(getpid())")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-f", "-qq", "-o", output.path, "-e", "trace=openat", "/bin/true"]
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    do {
      try process.run()
    } catch {
      return "cannot start \(executable): \(error)"
    }
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let traced = (try? String(contentsOf: output, encoding: .utf8))?.contains("openat(") ?? false
    guard process.terminationStatus == 0, traced else {
      return "strace cannot trace a child here (ptrace not permitted?): exit \(process.terminationStatus), \(message)"
    }
    return nil
  }()
}

/// One system call as `strace -f -y -o FILE` wrote it.
struct TracedCall: Sendable, CustomStringConvertible {
  let thread: Int
  let name: String
  /// The whole line, with its descriptors' paths (`-y`).
  let line: String
  /// The call never returned: strace killed the thread on entry, or it was still running then.
  let unfinished: Bool

  var description: String { line }

  /// Parses strace's `-f -o` output: `PID  name(args) = result`; a call another thread interrupted
  /// is split into `name(args <unfinished ...>` and `<... name resumed>…`, counted once, at its start.
  static func parse(_ text: String) -> (calls: [TracedCall], killed: Bool) {
    var calls: [TracedCall] = []
    var killed = false
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard fields.count == 2, let thread = Int(fields[0]) else { continue }
      let rest = fields[1].drop { $0 == " " }
      if rest.hasPrefix("+++ killed by SIGKILL") { killed = true }
      guard let open = rest.firstIndex(of: "("), !rest.hasPrefix("<..."), !rest.hasPrefix("+++"),
        !rest.hasPrefix("---")
      else { continue }
      let name = String(rest[..<open])
      guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
      let unfinished = rest.hasSuffix("<unfinished ...>") || rest.hasSuffix("= ?")
      calls.append(TracedCall(thread: thread, name: name, line: String(line), unfinished: unfinished))
    }
    return (calls, killed)
  }

  /// Whether the call names something in `folder` (its path in a string, or a descriptor's path
  /// that `-y` shows in angle brackets).
  func touches(_ folder: String) -> Bool {
    line.contains(folder + "/") || line.contains(folder + ">") || line.contains(folder + "\"")
  }

  /// Every path under `folder` the call names.
  func paths(under folder: String) -> [String] {
    var found: [String] = []
    var rest = Substring(line)
    while let range = rest.range(of: folder) {
      var end = range.upperBound
      while end < rest.endIndex, !"\"<>, ".contains(rest[end]) { end = rest.index(after: end) }
      found.append(String(rest[range.lowerBound..<end]))
      rest = rest[end...]
    }
    return found
  }
}
