import MonkeyShopDomain
import Synchronization

/// The width of the product list's widest buy button: every row's price starts where the widest
/// button leaves room for it, so a row's price and another's "Owned" stand in one column on every
/// page. Finding it asks every product of the catalog for its button (10,000 in the generated
/// catalog), so the width is kept while everything that decides the buttons stays the same: the
/// catalog's products, the App Store's answer, the storefront, whether purchases are allowed, the
/// owned products and the language. Asking whether they stayed the same costs next to nothing on
/// a frame: an array or a set still sharing its storage with the one kept is equal to it at once.
struct ButtonColumn: Equatable, Sendable {
  var products: [Product]
  var answer: ShopModel.ProductsState
  var storefront: Storefront
  var canMakePayments: Bool
  var owned: OwnedProducts
  var language: Language

  init(_ model: ShopModel) {
    products = model.catalog.products
    answer = model.products
    storefront = model.storefront
    canMakePayments = model.canMakePayments
    owned = model.owned
    language = model.words.language
  }

  /// The widest of the buttons `width` measures, one per product of the model's catalog; kept
  /// for the next frame of a model whose buttons are the same.
  static func width(in model: ShopModel, of width: (Product) -> Int) -> Int {
    let column = ButtonColumn(model)
    if let last = kept.withLock({ $0 }), last.column == column { return last.width }
    let widest = column.products.map(width).max() ?? 0
    kept.withLock { $0 = (column, widest) }
    return widest
  }

  /// The last width found, with what it was found for.
  private static let kept = Mutex<(column: ButtonColumn, width: Int)?>(nil)
}
