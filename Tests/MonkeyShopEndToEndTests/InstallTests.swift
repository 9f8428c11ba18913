import Foundation
import Testing

/// `install.sh` as a new user runs it: the binary goes to PREFIX/bin and the walkthrough library to
/// PREFIX/share/monkeyshop, and the installed monkeyshop sells from the catalog built into it and
/// finds its walkthroughs from any folder, with no repository, no products.plist and no
/// MONKEYSHOP_CATALOG in sight.
@Suite("Installing monkeyshop", .tags(.endToEnd), .timeLimit(.minutes(40)))
struct InstallTests {
  private var script: String { Locations.repository.appendingPathComponent("install.sh").path }

  /// A shell environment of the test's own: HOME, the data folder and PREFIX in the test's folder,
  /// a PATH without the install folder.
  private func environment(_ folder: ShopFolder, prefix: URL) -> [String: String] {
    var environment = folder.environment(["PREFIX": prefix.path], unsetting: ["MONKEYSHOP_CATALOG"])
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return environment
  }

  /// Runs `install.sh ARGUMENTS` in the repository.
  private func install(_ arguments: [String], folder: ShopFolder, prefix: URL, timeout: Duration = .seconds(60))
    async throws -> ChildResult
  {
    try await Child(
      executable: "/bin/bash", [script] + arguments, in: folder, environment: environment(folder, prefix: prefix),
      directory: Locations.repository.path
    ).wait(timeout: timeout)
  }

  /// What the installed monkeyshop does, run from an empty folder of the test's.
  private func checkInstalled(_ prefix: URL, folder: ShopFolder) async throws {
    let installed = prefix.appendingPathComponent("bin/monkeyshop").path
    let elsewhere = folder.root.appendingPathComponent("somewhere-else")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let environment = environment(folder, prefix: prefix)
    let check = try await Child(
      executable: installed, ["catalog", "check"], in: folder, environment: environment, directory: elsewhere.path
    ).wait()
    #expect(check.exitStatus == 0, "\(check)")
    #expect(check.stdout.contains("the shipped catalog (built into monkeyshop)"), "\(check)")
    #expect(check.stdout.contains("com.monkeyshop.credits.5"), "\(check)")
    let list = try await Child(
      executable: installed, ["walkthrough", "--list"], in: folder, environment: environment,
      directory: elsewhere.path
    ).wait()
    #expect(list.exitStatus == 0, "\(list)")
    #expect(list.stdout.contains("share/monkeyshop/Walkthroughs/: "), "\(list)")
    #expect(list.stdout.contains("buy-5.yaml"), "\(list)")
    let run = try await Child(
      executable: installed, ["walkthrough", "buy-5", "-q"], in: folder, environment: environment,
      directory: elsewhere.path
    ).wait()
    #expect(run.exitStatus == 0, "a bundled walkthrough by name, from any folder: \(run)")
  }

  /// The install step on a binary already built (the one under test): installed into PREFIX with
  /// the library, the PATH advice printed, and the installed binary works from another folder.
  @Test("install.sh --binary installs into PREFIX; the installed monkeyshop works from any folder")
  func installsABuiltBinary() async throws {
    let folder = try ShopFolder("install")
    let prefix = folder.root.appendingPathComponent("prefix")
    let result = try await install(["--binary", try Locations.requireBinary()], folder: folder, prefix: prefix)
    #expect(result.exitStatus == 0, "\(result)")
    let bin = prefix.appendingPathComponent("bin").path
    #expect(result.stdout.contains("Installed \(bin)/monkeyshop (monkeyshop "), "\(result)")
    #expect(result.stdout.contains("\(bin) is not on your PATH: add this line"), "\(result)")
    #expect(result.stdout.contains("  export PATH=\(bin):\"$PATH\""), "\(result)")
    try await checkInstalled(prefix, folder: folder)

    // Again: the installed binary is replaced, not refused.
    let again = try await install(["--binary", try Locations.requireBinary()], folder: folder, prefix: prefix)
    #expect(again.exitStatus == 0, "\(again)")
  }

  /// PREFIX and --binary are the caller's paths: relative ones are read from the folder install.sh
  /// is run in, not the repository; the PATH line to add is quoted for the shell.
  @Test("install.sh reads a relative PREFIX and --binary from the caller's folder, and quotes the PATH line")
  func relativePaths() async throws {
    let folder = try ShopFolder("install-relative")
    let binary = folder.root.appendingPathComponent("ms")
    try FileManager.default.copyItem(atPath: try Locations.requireBinary(), toPath: binary.path)
    var environment = environment(folder, prefix: folder.root)
    environment["PREFIX"] = "my 'prefix'"
    let result = try await Child(
      executable: "/bin/bash", [script, "--binary", "./ms"], in: folder, environment: environment,
      directory: folder.root.path
    ).wait(timeout: .seconds(60))
    #expect(result.exitStatus == 0, "\(result)")
    let prefix = folder.root.appendingPathComponent("my 'prefix'")
    #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/monkeyshop").path))
    #expect(
      !FileManager.default.fileExists(atPath: Locations.repository.appendingPathComponent("my 'prefix'").path),
      "nothing installed in the repository")
    // The printed line, run by bash, puts exactly that folder on PATH.
    let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("  export PATH=") })
    let echoed = try await Child(
      executable: "/bin/bash", ["-c", "\(line); printf '%s' \"${PATH%%:*}\""], in: folder, environment: environment
    ).wait()
    #expect(echoed.stdout == prefix.appendingPathComponent("bin").path, "\(line) → \(echoed)")
    try await checkInstalled(prefix, folder: folder)
  }

  @Test("install.sh refuses an unknown argument (64) and a binary that is not there")
  func refusesBadArguments() async throws {
    let folder = try ShopFolder("install-refused")
    let prefix = folder.root.appendingPathComponent("prefix")
    let unknown = try await install(["--prefix", "/tmp"], folder: folder, prefix: prefix)
    #expect(unknown.exitStatus == 64, "\(unknown)")
    #expect(unknown.stderr.contains("install.sh: unknown argument '--prefix'"), "\(unknown)")
    let missing = folder.root.appendingPathComponent("no-such-binary").path
    let absent = try await install(["--binary", missing], folder: folder, prefix: prefix)
    #expect(absent.exitStatus == 66, "\(absent)")
    #expect(absent.stderr.contains("\(missing) is not an executable file"), "\(absent)")
    #expect(!FileManager.default.fileExists(atPath: prefix.path), "nothing installed")
  }

  /// The whole install as the README gives it: a release build with the Swift runtime linked in.
  /// Several minutes of building, so only with MONKEYSHOP_INSTALL_E2E=1. It builds with the
  /// person's HOME (where SwiftPM and git find their settings), in `.build/install`, which
  /// `swift test` (holding `.build`) does not lock.
  @Test(
    "./install.sh builds a release binary that needs no Swift runtime library and works from any folder",
    .enabled(if: ProcessInfo.processInfo.environment["MONKEYSHOP_INSTALL_E2E"] == "1"))
  func buildsAndInstalls() async throws {
    let folder = try ShopFolder("install-build")
    let prefix = folder.root.appendingPathComponent("prefix")
    var building = environment(folder, prefix: prefix)
    building["HOME"] = ProcessInfo.processInfo.environment["HOME"]
    let result = try await Child(
      executable: "/bin/bash", [script], in: folder, environment: building,
      directory: Locations.repository.path
    ).wait(timeout: .seconds(35 * 60))
    #expect(result.exitStatus == 0, "\(result)")
    #expect(!result.stderr.contains("warning: "), "\(result)")
    let installed = prefix.appendingPathComponent("bin/monkeyshop").path
    let ldd = try await Child(
      executable: "/usr/bin/ldd", [installed], in: folder, environment: environment(folder, prefix: prefix)
    ).wait()
    #expect(ldd.exitStatus == 0, "\(ldd)")
    #expect(!ldd.stdout.contains("libswift"), "no Swift runtime library: \(ldd.stdout)")
    #expect(!ldd.stdout.contains("libFoundation"), "no Foundation library: \(ldd.stdout)")
    try await checkInstalled(prefix, folder: folder)
  }
}
