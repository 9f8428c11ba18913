import ArgumentParser
import Foundation
import MonkeyShopDomain
import MonkeyShopStorage

/// `--storekit 1|2`: which StoreKit the app is written with. The choice is the `storeKit`
/// condition, kept in the data folder, so the next command runs the same app until it is changed.
struct StoreKitOption: ParsableArguments {
  @Option(
    name: .customLong("storekit"),
    help: ArgumentHelp(
      "Run the app written with StoreKit 1 (SKPaymentQueue) or StoreKit 2 (Product.purchase, Transaction.updates); kept in the data folder.",
      valueName: "1|2"))
  var api: StoreKitAPI?

  /// Writes the choice into the store before the app launches, when one was given.
  func apply(to folder: DataFolder, catalog: Catalog) throws(Failure) {
    try Self.apply(api, to: folder, catalog: catalog)
  }

  /// The same for a choice made elsewhere (`monkeyshop` with no arguments parses no options).
  static func apply(_ api: StoreKitAPI?, to folder: DataFolder, catalog: Catalog) throws(Failure) {
    guard let api else { return }
    do {
      _ = try folder.changeStore(catalog: catalog) { store in
        _ = try store.set(.storeKit, to: "\(api.rawValue)", at: Date())
      }
    } catch let error as any ShopError {
      throw Failure(error)
    } catch {
      throw Failure("\(folder.path): \(error)", .unreadableDataFile)
    }
  }
}

extension StoreKitAPI: ExpressibleByArgument {
  public init?(argument: String) {
    var conditions = Conditions()
    guard (try? Condition.storeKit.set(argument, in: &conditions)) != nil else { return nil }
    self = conditions.storeKit
  }

  public static var allValueStrings: [String] { ["1", "2"] }
}
