import Foundation
import Testing

/// How `monkeyshop` starts: storefront options alone are parsed without the rest of the command
/// line, and a refused one is reported once, with the same words and exit status as through
/// `monkeyshop storefront`.
@Suite("Start-up: a refused storefront option is reported once", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct StartupTests {
  struct Refusal: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let exitStatus: Int32
    /// Each is said exactly once on standard error.
    let once: [String]

    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let refusals: [Refusal] = [
    Refusal(
      arguments: ["--storefront", "XXX"], exitStatus: 64,
      once: ["Error: ", "'--storefront'", "Usage: monkeyshop storefront "]),
    Refusal(arguments: ["--lang", "xx"], exitStatus: 64, once: ["Error: ", "'xx'", "Usage: monkeyshop storefront "]),
    Refusal(
      arguments: ["--lang"], exitStatus: 64, once: ["Error: ", "'--lang <en|ja>'", "Usage: monkeyshop storefront "]),
    Refusal(arguments: ["--catalog"], exitStatus: 64, once: ["Error: ", "'--catalog <path>'", "Usage: "]),
    Refusal(
      arguments: ["--catalog", "/nonexistent/products.plist"], exitStatus: 65,
      once: ["monkeyshop: ", "/nonexistent/products.plist", "MS-E0012"]),
    Refusal(arguments: ["--lang", "ja", "--lang", "xx"], exitStatus: 64, once: ["Error: ", "'xx'"]),
  ]

  @Test("a bad storefront option: one message, its exit status, nothing written", arguments: refusals)
  func refusedOnce(_ refusal: Refusal) async throws {
    let folder = try ShopFolder("startup")
    let result = try await Child(refusal.arguments, in: folder).wait()
    #expect(result.exitStatus == refusal.exitStatus, "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
    for text in refusal.once {
      #expect(result.stderr.components(separatedBy: text).count == 2, "'\(text)' once: \(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.data.path), "\(folder.dataFolderNames())")

    // The same words and status through the full command line.
    let full = try await Child(["storefront"] + refusal.arguments, in: folder).wait()
    #expect(full.exitStatus == result.exitStatus, "\(full)")
    #expect(full.stderr == result.stderr, "\(full)\n\(result)")
  }

  @Test("a data folder that is a file stops the storefront once, exit 65 with MS-E0011, before any screen")
  func unusableDataFolder() async throws {
    let folder = try ShopFolder("startup-data")
    let file = folder.file("data").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    let result = try await Child(["--lang", "en", "--data-dir", file], in: folder).wait()
    #expect(result.exitStatus == 65, "\(result)")
    for text in ["monkeyshop: ", file, "MS-E0011"] {
      #expect(result.stderr.components(separatedBy: text).count == 2, "'\(text)' once: \(result)")
    }
  }
}
