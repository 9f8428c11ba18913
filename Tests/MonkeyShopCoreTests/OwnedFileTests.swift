import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// `owned.json` that is not JSON at all is refused for what it is, with its path and the place.
@Suite(.tags(.pure)) struct OwnedFileTests {
  static let path = "/data/owned.json"

  static func problem(_ text: String) -> String? {
    do {
      _ = try DataFileReader(path: path, data: Data(text.utf8)).owned()
      return nil
    } catch {
      return error.message
    }
  }

  @Test func aTruncatedFileIsNotValidJSON() {
    let truncated = #"{"schemaVersion": 1, "products": [{"productIdentifier": "com.monkeyshop.jungle-map", "transac"#
    #expect(
      Self.problem(truncated)
        == "\(Self.path): is not valid JSON: it ends in the middle of a value (the file is cut short)")
  }

  @Test func aBrokenFileSaysWhere() {
    #expect(
      Self.problem("{\"schemaVersion\": 1,\n \"products\": [}")
        == "\(Self.path): is not valid JSON: Invalid value around character 35 (line 2, column 15)")
  }

  @Test func validJSONThatIsNotAnObjectIsStillSaidSo() {
    #expect(Self.problem("[1]") == "\(Self.path): not a monkeyshop JSON file (it is not a JSON object)")
    #expect(Self.problem("") == "\(Self.path): not a monkeyshop JSON file (it is empty)")
  }
}
