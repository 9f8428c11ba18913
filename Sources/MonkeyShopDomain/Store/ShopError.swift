/// An error a user can see: what went wrong in words, and the stable ID a tester quotes. A type
/// gives its `message` without the ID; how it is shown, and how a command exits with it, come from
/// here alone.
public protocol ShopError: Error, CustomStringConvertible {
  /// Which error this is, for bug reports, the log and the exit status.
  var errorID: ErrorID { get }
  /// What went wrong, without the ID.
  var message: String { get }
  /// What went wrong in Japanese, for the storefront under `--lang ja`; nil where the words are
  /// not the shop's own (a file's problem as the system gave it, the App Store's words).
  var japaneseMessage: String? { get }
}

extension ShopError {
  /// `not enough monkey credits: 3 requested, 0 in the wallet — MS-E0010`: the message, then its
  /// ID. The one place an ID is added to a message.
  public var formatted: String { "\(message) — \(errorID)" }

  public var japaneseMessage: String? { nil }

  /// The error as the user sees it: `formatted`.
  public var description: String { formatted }

  /// How a command that fails with this error exits.
  public var exitStatus: ExitStatus { errorID.exitStatus }
}
