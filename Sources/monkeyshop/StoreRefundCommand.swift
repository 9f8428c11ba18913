import ArgumentParser
import Foundation
import MonkeyShopDomain

extension StoreCommand {
  /// `store refund ID [--reason developerIssue|other]`: Apple's side refunds a purchase, as
  /// Xcode's Transaction Manager does. The app learns of it the way its StoreKit API tells it.
  struct Refund: NamesATransaction {
    static let configuration = CommandConfiguration(
      commandName: "refund",
      abstract: "The App Store refunds a purchased transaction: it gets revocationDate and revocationReason.",
      discussion:
        "Any purchased transaction can be refunded, once, however old: one only the history lists comes back into the store with its refund, so the app sees it."
    )

    @Argument(help: "A transaction id, or `last` for the newest purchased one not refunded.") var transaction: String

    @Option(help: "Why the customer was refunded: developerIssue (1) or other (0), as Transaction.RevocationReason.")
    var reason: RevocationReason = .other

    @OptionGroup var options: ShopOptions

    func run() throws {
      let folder = options.dataFolder
      try options.checkDataFiles(folder)
      let catalog = try options.loadCatalog()
      let now = Date()
      let (refunded, _) = try folder.changeStoreSeeingHistory(catalog: catalog, reaching: .transaction(transaction)) {
        store in
        try store.refund(transaction, reason: reason, at: now)
      }
      say(
        "refunded: transaction \(refunded.logName) (\(refunded.productIdentifier) ×\(refunded.quantity)), "
          + "revocationDate \(ISO8601.string(from: refunded.revocationDate ?? now)), revocationReason \(reason)")
    }
  }
}

/// `--reason`: by name, as `Transaction.RevocationReason` spells it, or by its raw value.
extension RevocationReason: ExpressibleByArgument {
  public init?(argument: String) {
    if let reason = RevocationReason(name: argument) ?? Int(argument).flatMap(RevocationReason.init(rawValue:)) {
      self = reason
    } else {
      return nil
    }
  }

  public static var allValueStrings: [String] { allCases.map(\.description) }
  public var defaultValueDescription: String { description }
}
