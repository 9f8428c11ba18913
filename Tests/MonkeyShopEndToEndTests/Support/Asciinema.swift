import Foundation

/// Recordings played as a person plays them: asciinema's own `asciinema cat` (asciinema 2.4.0 from
/// PyPI, as .ci/run installs it), its output then written into a real terminal (tmux).
enum Asciinema {
  /// What `asciinema cat` prints for a recording: every frame's output, in order.
  static func cat(_ path: String, in folder: ShopFolder) async throws -> String {
    let python = try Tools.requirePython(for: "the recording tests play casts with asciinema")
    let child = try Child(
      executable: python, ["-m", "asciinema", "cat", path], in: folder, environment: folder.environment())
    let result = try await child.wait(timeout: .seconds(60))
    guard result.exitStatus == 0 else {
      throw E2EFailure("asciinema cat \(path) failed (\(Tools.missingPackage("asciinema==2.4.0"))): \(result)")
    }
    return result.stdout
  }

  /// The screen a terminal of `width`×`height` shows once `output` is written to it, waited for
  /// until `shown` holds.
  static func screen(
    after output: String, width: Int, height: Int, in folder: ShopFolder, until shown: (Screen) -> Bool
  ) async throws -> Screen {
    let file = folder.file("played").path
    guard FileManager.default.createFile(atPath: file, contents: Data(output.utf8)) else {
      throw E2EFailure("cannot write \(file)")
    }
    let tmux = try await TmuxSession(folder: folder, width: width, height: height)
    defer { tmux.close() }
    // Nothing after the output: the shell's prompt must not scroll or cover the last frame.
    try await tmux.run("cat '\(file)'; exec sleep 600")
    return try await tmux.waitForScreen("the recording's last frame", shown)
  }
}
