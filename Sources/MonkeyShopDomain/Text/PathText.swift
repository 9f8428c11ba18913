/// Paths as text. Foundation's `NSString.deletingLastPathComponent` traps on a one-character
/// relative path (`--data-dir d` stopped monkeyshop with "Illegal instruction"), so the folder of a
/// path is found here.
public enum PathText {
  /// The folder `path` is in: `.` for a bare name such as `data`, `/` for `/data`; trailing
  /// slashes are not names.
  public static func folder(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    var folder = trimmed[..<slash]
    while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
    return folder.isEmpty ? "/" : String(folder)
  }
}
