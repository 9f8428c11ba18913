/// Which StoreKit the simulated app is written with: the original API (`SKPaymentQueue` and its
/// observer) or StoreKit 2 (`Product.purchase`, `Transaction.updates`). It is the app's choice, kept
/// in the data folder with the store's conditions so every monkeyshop on the folder runs the same
/// app; switching restarts the app, because one app never mixes the two APIs (seed 002).
public enum StoreKitAPI: Int, Codable, CaseIterable, Sendable, CustomStringConvertible {
  case storeKit1 = 1
  case storeKit2 = 2

  /// `StoreKit 1`, `StoreKit 2`.
  public var description: String { "StoreKit \(rawValue)" }

  public var other: StoreKitAPI { self == .storeKit1 ? .storeKit2 : .storeKit1 }
}
