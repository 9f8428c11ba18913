import Foundation

/// Where the things under test are: the built `monkeyshop` executable and the repository it was built
/// from (for the shipped `products.plist`).
enum Locations {
  /// The repository: the nearest folder above this file that holds `Package.swift`.
  static let repository: URL = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        return folder
      }
      folder.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  }()

  /// The catalog the repository ships.
  static var catalog: String { repository.appendingPathComponent("products.plist").path }

  /// Folders SwiftPM may have put this test bundle in, best first. The test bundle and the
  /// executables of one build share one build folder (`.build/<triple>/debug`, or whatever
  /// `--scratch-path` says), so the executable found there is the one this `swift test` built; a
  /// fixed `.build/debug/monkeyshop` could be a stale binary of another build.
  private static var buildFolders: [URL] {
    var folders: [URL] = []
    // Linux: the test runner is `<build folder>/monkeyshopPackageTests.xctest`, a plain executable.
    if let runner = ProcessInfo.processInfo.arguments.first {
      folders.append(URL(fileURLWithPath: runner).resolvingSymlinksInPath().deletingLastPathComponent())
    }
    // macOS: the runner is Xcode's `xctest`; the test bundle is a folder in the build folder.
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      folders.append(bundle.bundleURL.deletingLastPathComponent())
    }
    folders.append(Bundle.main.bundleURL)
    return folders
  }

  /// `$MONKEYSHOP_E2E_BINARY`, else `monkeyshop` beside this test bundle; nil when there is none.
  static let binary: String? = {
    if let explicit = ProcessInfo.processInfo.environment["MONKEYSHOP_E2E_BINARY"], !explicit.isEmpty {
      return explicit
    }
    return buildFolders.map { $0.appendingPathComponent("monkeyshop").path }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// Why the tests cannot run, for the failure message.
  static var missingBinaryMessage: String {
    """
    no monkeyshop executable beside the test bundle (looked in \(buildFolders.map(\.path))); \
    `swift test` builds it, `swift test --skip-build` needs a `swift build` first, or set MONKEYSHOP_E2E_BINARY
    """
  }

  /// The executable, or a test failure that says how to get one.
  static func requireBinary() throws -> String {
    guard let binary else {
      throw E2EFailure(missingBinaryMessage)
    }
    return binary
  }

  static func executable(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// A test precondition that did not hold, with what to do about it.
struct E2EFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
