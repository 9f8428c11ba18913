import Foundation
import Testing

/// The executable the other end-to-end tests run. `swift test` builds every target of the package,
/// executables included, before it runs any test (checked: with `.build/debug/monkeyshop` deleted,
/// `swift test --filter MonkeyShopEndToEndTests` rebuilds it), so this fails only after
/// `swift test --skip-build` on a clean build folder.
@Suite("The binary under test", .tags(.endToEnd))
struct BinaryUnderTestTests {
  @Test("monkeyshop is built beside the test bundle")
  func exists() throws {
    let binary = try Locations.requireBinary()
    #expect(FileManager.default.isExecutableFile(atPath: binary))
  }
}
