import MonkeyShopApp
import MonkeyShopDomain

/// How a command fails: a message on standard error and an exit status scripts can test. Every
/// failure carries an error ID, and its exit status comes from the one rule (`ErrorID.exitStatus`):
/// no command picks a status by hand.
struct Failure: Error, CustomStringConvertible {
  let description: String
  let errorID: ErrorID
  var exitStatus: ExitStatus { errorID.exitStatus }

  /// `text` as it is (no ID appended: the error's ID reaches `--json` and the exit status).
  init(_ text: String, _ errorID: ErrorID) {
    description = text
    self.errorID = errorID
  }

  /// An error of the shop, shown with its ID and ending the command with the exit status its ID
  /// calls for; `advice`, when given, is a line after it.
  init(_ error: some ShopError, then advice: String? = nil) {
    self.init([error.formatted, advice].compactMap { $0 }.joined(separator: "\n"), error.errorID)
  }

  /// A failure already told (a walkthrough's transcript said what did not hold): only the exit
  /// status its ID calls for.
  static func silent(_ errorID: ErrorID) -> Failure { Failure("", errorID) }

  /// A command-line argument the command refuses, shown as the shop's error says it (with that
  /// error's ID), and ending as a refused argument.
  static func refusing(_ error: some ShopError) -> Failure { Failure(error.formatted, .invalidArgument) }

  /// How a headless run of the app ended badly: what happened (`what`), then the app's last error,
  /// with the exit status that error's ID calls for; without one, `otherwise`.
  static func of(_ model: ShopModel, _ what: String, otherwise: ErrorID = .deliveryIncomplete) -> Failure {
    guard let failure = model.lastFailure else { return Failure(what, otherwise) }
    return Failure("\(what): \(failure)", failure.errorID)
  }

  /// What any error a command ends with means for the user: a `Failure` as it is, an error of the
  /// shop by its ID and message. Nil for the command-line parser's own (help, a refused argument,
  /// an exit code), which the parser reports.
  static func of(_ error: any Error) -> Failure? {
    switch error {
    case let failure as Failure: failure
    case let error as any ShopError: Failure(error)
    default: nil
    }
  }
}
