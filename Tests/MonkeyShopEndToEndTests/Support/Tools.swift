import Foundation

/// The programs the end-to-end tests run besides monkeyshop, found in one place. `Tests/run` (the
/// test command of the README) checks the system tools before any test runs and installs the Python
/// packages into `.build/test-python`; a test run some other way finds the same programs here, or
/// fails with one line naming what is missing and how to install it.
enum Tools {
  /// A terminal for the storefront's end-to-end tests.
  static let tmux: String? = Locations.executable(named: "tmux")
  /// The crash-point sweep and the syscall counts (Linux).
  static let strace: String? = Locations.executable(named: "strace")

  /// The Python the tests run Apple's App Store Server Library, asciinema and plistlib in:
  /// `$MONKEYSHOP_TEST_PYTHON`, else the virtual environment `Tests/run` makes
  /// (`.build/test-python`), else `python3` on the PATH.
  static let python: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["MONKEYSHOP_TEST_PYTHON"], !explicit.isEmpty { return explicit }
    let venv = Locations.repository.appendingPathComponent(".build/test-python/bin/python3").path
    if FileManager.default.isExecutableFile(atPath: venv) { return venv }
    return Locations.executable(named: "python3")
  }()

  /// The line a test fails with when a system tool is missing.
  static func missing(_ tool: String, package: String? = nil, for purpose: String) -> E2EFailure {
    E2EFailure("\(tool) is not installed (\(purpose)): apt-get install \(package ?? tool)")
  }

  static func requireTmux() throws -> String {
    guard let tmux else { throw missing("tmux", for: "the storefront's end-to-end tests run it in tmux") }
    return tmux
  }

  /// Python, or a failure that says how to get it with the packages the tests use.
  static func requirePython(for purpose: String) throws -> String {
    guard let python else {
      throw E2EFailure(
        "python3 is not installed (\(purpose)): apt-get install python3 python3-venv, then Tests/run installs "
          + "the packages the tests use into .build/test-python")
    }
    return python
  }

  /// What to say when a Python package the tests use is missing from `python`.
  static func missingPackage(_ requirement: String) -> String {
    "\(requirement) is not installed for \(python ?? "python3"): Tests/run installs it into .build/test-python"
  }
}
