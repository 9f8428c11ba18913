import Foundation
import Testing

/// The executable the other end-to-end tests run. `swift test` builds every target of the package,
/// executables included, before it runs any test (checked: with `.build/debug/monkeyshop` deleted,
/// `swift test --filter MonkeyShopEndToEndTests` rebuilds it), so these fail only after
/// `swift test --skip-build`, or when a source changed after the build.
@Suite("The binary under test")
struct BinaryUnderTestTests {
  @Test("monkeyshop is built beside the test bundle")
  func exists() throws {
    let binary = try Locations.requireBinary()
    #expect(FileManager.default.isExecutableFile(atPath: binary))
  }

  @Test("monkeyshop is newer than every source it is built from")
  func isFresh() throws {
    let binary = try Locations.requireBinary()
    let built = try modificationDate(binary)
    var newer: [String] = []
    let repository = Locations.repository
    let package = repository.appendingPathComponent("Package.swift").path
    for path in [package] + files(under: repository.appendingPathComponent("Sources")) {
      if try modificationDate(path) > built { newer.append(path) }
    }
    #expect(
      newer.isEmpty,
      "changed after \(binary) was built (run `swift build`, or `swift test` without --skip-build): \(newer)")
  }
}

private func modificationDate(_ path: String) throws -> Date {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  guard let date = attributes[.modificationDate] as? Date else { throw E2EFailure("no modification date for \(path)") }
  return date
}

/// Every regular file below a folder.
private func files(under folder: URL) -> [String] {
  guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
  var paths: [String] = []
  while let relative = enumerator.nextObject() as? String {
    let path = folder.appendingPathComponent(relative).path
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { paths.append(path) }
  }
  return paths
}
