import MonkeyShopDomain

/// What a headless `spend` reports, from what the wallet answered (`CreditManager.spend`): the
/// balance it left, or the refusal with the balance there was, and so the exit status. `--json`
/// prints it as it is.
public struct SpendOutcome: Encodable, Sendable {
  public enum Kind: String, Encodable, Sendable {
    /// The credits were taken from the wallet.
    case spent
    /// The wallet holds fewer credits than asked for: nothing was taken.
    case refused
    /// The wallet could not be read or written: nothing was taken.
    case failed
  }

  public let outcome: Kind
  /// The credits asked for.
  public let credits: Int
  /// The balance after spending, or the balance that refused it; nil when the wallet could not be
  /// read.
  public let balance: Int?
  public let error: ErrorReport?
  /// 0 when the credits were spent, else the error's.
  public var exitStatus: Int32 { error?.exitStatus ?? 0 }

  private enum CodingKeys: String, CodingKey {
    case outcome, credits, balance, error, exitStatus
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(credits, forKey: .credits)
    try container.encodeIfPresent(balance, forKey: .balance)
    try container.encodeIfPresent(error, forKey: .error)
    try container.encode(exitStatus, forKey: .exitStatus)
  }

  /// Spends `credits` from the wallet `manager` keeps, and says how that went. An error that is not
  /// the shop's (none is expected) is thrown as it is.
  public init(credits: Int, spendingFrom manager: CreditManager) throws {
    do {
      self.init(credits: credits, balance: try manager.spend(credits))
    } catch let error as any ShopError {
      self.init(credits: credits, error: error)
    }
  }

  /// The credits were spent: the balance they left.
  public init(credits: Int, balance: Int) {
    self.credits = credits
    outcome = .spent
    self.balance = balance
    error = nil
  }

  /// The wallet refused, or could not be read or written: the error it ended with.
  public init(credits: Int, error: any ShopError) {
    self.credits = credits
    if case CreditError.insufficientBalance(let balance, _) = error {
      outcome = .refused
      self.balance = balance
    } else {
      outcome = .failed
      balance = nil
    }
    self.error = ErrorReport(message: error.formatted, errorID: error.errorID)
  }

  /// The text output when the credits were spent.
  public var line: String? {
    guard outcome == .spent, let balance else { return nil }
    return "spent \(credits): \(counted(balance, "monkey credit")) left"
  }
}
