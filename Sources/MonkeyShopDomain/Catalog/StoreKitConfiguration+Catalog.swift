import Foundation

/// From a StoreKit configuration file to a catalog: the products monkeyshop sells, in the
/// property-list shape the catalog loader reads, checked by that loader, so a `.storekit` file and
/// the `products.plist` made from it are held to the same rules.
extension StoreKitConfiguration {
  /// The products that need `--credits`: monkeyshop sells monkey credits, which Xcode's file does
  /// not know about.
  public var consumables: [InAppProduct] { products.filter { $0.kind == .consumable } }

  /// The catalog the file sells, each consumable granting `credits[productID]` per unit.
  public func catalog(credits: [String: Int]) throws(CatalogError) -> Catalog {
    guard !products.isEmpty else {
      let left = subscriptions.isEmpty ? "" : " (its subscriptions are not sold here)"
      throw CatalogError(
        path: path, key: "products", problem: "has no consumable or non-consumable\(left)",
        expected: "at least one product of type Consumable or NonConsumable")
    }
    // The file first, with stand-in credits: what is wrong in it is named whatever the command
    // line gives.
    _ = try loaded(credits: Dictionary(consumables.map { ($0.productID, 1) }) { first, _ in first })
    try checkCredits(credits)
    let missing = consumables.filter { credits[$0.productID] == nil }
    if !missing.isEmpty {
      let names = missing.map { TerminalText.clipped($0.productID) }
      let options = names.map { "--credits \($0)=N" }.joined(separator: " ")
      throw CatalogError(
        path: path,
        problem:
          "\(missing.count == 1 ? "a consumable needs" : "consumables need") the monkey credits one unit grants: \(names.joined(separator: ", "))",
        expected: "\(options), N from 1 to \(Product.maximumCredits)")
    }
    return try loaded(credits: credits)
  }

  /// Credits for a product the file does not sell as a consumable are refused: a typing mistake
  /// would otherwise leave the product it meant without credits, or be silently ignored.
  private func checkCredits(_ credits: [String: Int]) throws(CatalogError) {
    // What the file takes: credits for its consumables, named; or, when it has none, no credits.
    let expected =
      consumables.isEmpty
      ? "no --credits: the file has no consumable"
      : "--credits for the consumables: \(consumables.map { TerminalText.clipped($0.productID) }.joined(separator: ", "))"
    for productID in credits.keys.sorted() {
      if let product = products.first(where: { $0.productID == productID }) {
        guard product.kind == .consumable else {
          throw CatalogError(
            path: path, product: productID, key: "--credits",
            problem: "is a non-consumable (\(product.place)), which grants no credits", expected: expected)
        }
      } else if let subscription = subscriptions.first(where: { $0.productID == productID }) {
        throw CatalogError(
          path: path, product: productID, key: "--credits",
          problem: "is a subscription (\(subscription.place)), not sold here", expected: expected)
      } else {
        throw CatalogError(
          path: path, product: productID, key: "--credits", problem: "is not a product of the file",
          expected: expected)
      }
      guard let count = credits[productID], (1...Product.maximumCredits).contains(count) else {
        throw CatalogError(
          path: path, product: productID, key: "--credits", problem: "is \(credits[productID] ?? 0)",
          expected: "a whole number from 1 to \(Product.maximumCredits)")
      }
    }
  }

  private func loaded(credits: [String: Int]) throws(CatalogError) -> Catalog {
    do {
      return try CatalogLoader.catalog(root: catalogRoot(credits: credits), path: path)
    } catch {
      throw translated(error)
    }
  }

  /// The catalog as a property-list root: what `catalog import` writes.
  func catalogRoot(credits: [String: Int]) -> [String: Any] {
    var entries: [[String: Any]] = []
    for product in products {
      var entry: [String: Any] = [
        "productIdentifier": product.productID,
        "localizations": catalogLocalizations(of: product).chosen.mapValues {
          ["title": $0.displayName, "description": $0.description]
        },
        "prices": [storefront.code: product.displayPrice],
      ]
      switch product.kind {
      case .consumable:
        entry["type"] = "consumable"
        entry["credits"] = credits[product.productID]
      case .nonConsumable:
        entry["type"] = "nonConsumable"
      }
      entries.append(entry)
    }
    return ["defaultStorefront": storefront.code, "products": entries]
  }

  /// Each catalog language's localization: the first of the file's for that language, and for
  /// English, when the file has none, the product's first (the catalog falls back on English, and
  /// needs it). What was left out or stood in is said in `notes`.
  func catalogLocalizations(of product: InAppProduct) -> (chosen: [String: Localization], notes: [String]) {
    var chosen: [String: Localization] = [:]
    var notes: [String] = []
    let name = "\(product.place) '\(TerminalText.clipped(product.productID))'"
    for localization in product.localizations {
      if let kept = chosen[localization.language] {
        notes.append(
          "\(name): localizations[\(localization.index)] (\(TerminalText.clipped(localization.locale))) left out: \(TerminalText.clipped(localization.language)) comes from \(TerminalText.clipped(kept.locale))"
        )
      } else {
        chosen[localization.language] = localization
      }
    }
    if chosen["en"] == nil, let first = product.localizations.first {
      chosen["en"] = first
      notes.append(
        "\(name): no English localization; \(TerminalText.clipped(first.locale))'s text is shown for English too")
    }
    return (chosen, notes)
  }

  /// What the conversion left out or stood in for, in the file's order: for `catalog import` and
  /// `catalog check` to report.
  public var notes: [String] {
    var notes = products.flatMap { catalogLocalizations(of: $0).notes }
    if !subscriptions.isEmpty {
      let listed = subscriptions.map { "\(TerminalText.clipped($0.productID)) (\($0.place))" }
      notes.append("not sold here (subscriptions): \(listed.joined(separator: ", "))")
    }
    return notes
  }

  /// An error of the catalog loader, about the catalog made from the file, told in the file's
  /// terms: `products[2].displayPrice`, not `prices.USA`.
  private func translated(_ error: CatalogError) -> CatalogError {
    var key = error.key
    if let name = error.product, let product = products.first(where: { $0.productID == name }), let catalogKey = key {
      let place = product.place
      let parts = catalogKey.split(separator: ".", maxSplits: 2).map(String.init)
      switch parts.first {
      case "productIdentifier": key = "\(place).productID"
      case "type": key = "\(place).type"
      case "prices": key = "\(place).displayPrice"
      case "localizations":
        key = "\(place).localizations"
        if parts.count > 1, let localization = catalogLocalizations(of: product).chosen[parts[1]] {
          let field = parts.count > 2 ? (parts[2] == "title" ? ".displayName" : ".\(parts[2])") : ""
          key = "\(place).localizations[\(localization.index)]\(field)"
        }
      default: break
      }
    } else if key == "defaultStorefront" {
      key = "settings._storefront"
    }
    return CatalogError(path: path, product: error.product, key: key, problem: error.problem, expected: error.expected)
  }
}
