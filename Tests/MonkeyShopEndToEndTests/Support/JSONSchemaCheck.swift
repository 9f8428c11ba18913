import Foundation
import Testing

/// The JSON Schemas published for each command's `--json` output (docs/json/), checked with the
/// Python `jsonschema` package (Tests/requirements.txt, which `Tests/run` installs) over the real output.
enum JSONSchemaCheck {
  static let script = Locations.repository.appendingPathComponent("Tests/Schemas/validate_json.py").path
  static let schemas = Locations.repository.appendingPathComponent("docs/json")

  /// Expects `output` to be valid against `schema` (a file of docs/json/); `lines`: JSON Lines.
  static func expectValid(
    _ output: String, against schema: String, lines: Bool = false, in folder: ShopFolder,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let python = try Tools.requirePython(for: "the JSON Schema check runs in it")
    let file = folder.file("output-\(UUID().uuidString).json").path
    try output.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try await Child(
      executable: python,
      [script, schemas.appendingPathComponent(schema).path, file] + (lines ? ["--lines"] : []),
      in: folder, environment: folder.environment()
    ).wait(timeout: .seconds(60))
    if result.stderr.contains("ModuleNotFoundError") {
      throw E2EFailure(
        "the JSON Schema check needs Python's jsonschema (Tests/run installs Tests/requirements.txt): \(result)"
      )
    }
    #expect(
      result.exitStatus == 0 && result.stdout.contains("valid"), "\(schema): \(result.stdout)\n\(output)",
      sourceLocation: sourceLocation)
  }
}
