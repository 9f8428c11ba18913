import MonkeyShopApp
import MonkeyShopDomain

/// How a command fails: a message on standard error and an exit status scripts can test.
struct Failure: Error, CustomStringConvertible {
  let description: String
  let exitStatus: ExitStatus

  init(_ text: String, exitStatus: ExitStatus) {
    description = text
    self.exitStatus = exitStatus
  }

  /// An error of the shop, shown with its ID and ending the command with the exit status its ID
  /// calls for; `advice`, when given, is a line after it.
  init(_ error: some ShopError, then advice: String? = nil) {
    self.init([error.formatted, advice].compactMap { $0 }.joined(separator: "\n"), exitStatus: error.exitStatus)
  }

  /// A command-line argument the command refuses, shown with the error's ID (exit 64).
  static func usage(_ error: some ShopError) -> Failure { Failure(error.formatted, exitStatus: .usage) }

  /// An operation that did not succeed, for what has no error ID of its own (exit 1).
  static func failed(_ text: String) -> Failure { Failure(text, exitStatus: .failure) }

  /// A file the command cannot use, for what has no error ID of its own (exit 65).
  static func data(_ text: String) -> Failure { Failure(text, exitStatus: .dataError) }

  /// How a headless run of the app ended badly: what happened (`what`), then the app's last error,
  /// with the exit status that error's ID calls for.
  static func of(_ model: ShopModel, _ what: String) -> Failure {
    guard let failure = model.lastFailure else { return .failed(what) }
    return Failure("\(what): \(failure)", exitStatus: failure.exitStatus)
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
