import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A signal whose default action ends the process, sent to the storefront.
struct FatalSignal: Sendable, CustomTestStringConvertible {
  let name: String
  let number: Int32

  var testDescription: String { name }

  /// Every one the storefront did not handle before, and a real-time one.
  static let all: [FatalSignal] = {
    var signals = [
      FatalSignal(name: "SIGUSR1", number: SIGUSR1), FatalSignal(name: "SIGUSR2", number: SIGUSR2),
      FatalSignal(name: "SIGALRM", number: SIGALRM), FatalSignal(name: "SIGPIPE", number: SIGPIPE),
      FatalSignal(name: "SIGXCPU", number: SIGXCPU), FatalSignal(name: "SIGXFSZ", number: SIGXFSZ),
      FatalSignal(name: "SIGVTALRM", number: SIGVTALRM), FatalSignal(name: "SIGPROF", number: SIGPROF),
      FatalSignal(name: "SIGTRAP", number: SIGTRAP), FatalSignal(name: "SIGSYS", number: SIGSYS),
    ]
    #if os(Linux)
      signals += [
        FatalSignal(name: "SIGIO", number: SIGIO), FatalSignal(name: "SIGSTKFLT", number: SIGSTKFLT),
        FatalSignal(name: "SIGPWR", number: SIGPWR), FatalSignal(name: "SIGRTMIN+6", number: 40),
      ]
    #endif
    return signals
  }()
}

extension StorefrontTmuxTests {
  @Test(
    "a signal whose default action ends the storefront restores the terminal, then ends it as that signal",
    arguments: FatalSignal.all)
  func fatalSignalRestoresTheTerminal(_ signal: FatalSignal) async throws {
    let folder = try ShopFolder("signal-\(signal.name)")
    let tmux = try await TmuxSession(folder: folder)
    defer { tmux.close() }
    // SIGXCPU, SIGXFSZ, SIGTRAP and SIGSYS dump core by default: not into the test's folders.
    try await tmux.run("ulimit -c 0")
    try await tmux.launchStorefront()
    try await tmux.waitFor("Buy $0.99")
    kill(try await tmux.storefrontPID(), signal.number)
    let shell = try await tmux.shellStateAfterExit()
    #expect(shell.isRestored, "\(signal.name): \(shell)")
    #expect(shell.modes.contains("echo") && !shell.modes.contains("-echo"), "\(signal.name): \(shell)")
    // The shell says the process died of the signal: 128 + its number.
    #expect(shell.exitStatus == 128 + signal.number, "\(signal.name): \(shell)")
  }
}
