import Foundation

/// From a StoreKit configuration file to a catalog: the products monkeyshop sells, in the
/// property-list shape the catalog loader reads, checked by that loader, so a `.storekit` file and
/// the `products.plist` made from it are held to the same rules.
extension StoreKitConfiguration.InAppProduct {
  /// The name shown where the file's localization texts are empty: the reference name, else the ID.
  var standInName: String { referenceName ?? productID }
}

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
      let names = missing.prefix(TerminalText.listLength).map { TerminalText.clipped($0.productID) }
      let options = TerminalText.listed(names.map { "--credits \($0)=N" }, total: missing.count, separator: " ")
      let listed = TerminalText.listed(names, total: missing.count)
      throw CatalogError(
        path: path,
        problem:
          "\(missing.count == 1 ? "a consumable needs" : "consumables need") the monkey credits one unit grants: \(listed)",
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
      : "--credits for the consumables: \(TerminalText.listed(consumables.prefix(TerminalText.listLength).map { TerminalText.clipped($0.productID) }, total: consumables.count))"
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
  func catalogRoot(credits: [String: Int]) -> [String: PropertyListValue] {
    var entries: [PropertyListValue] = []
    for product in products {
      var entry: [String: PropertyListValue] = [
        "productIdentifier": .string(product.productID),
        "localizations": .dictionary(
          catalogLocalizations(of: product).chosen.mapValues { localization in
            let title = Self.isBlank(localization.displayName) ? product.standInName : localization.displayName
            let description = Self.isBlank(localization.description) ? title : localization.description
            return .dictionary(["title": .string(title), "description": .string(description)])
          }),
        "prices": .dictionary([storefront.code: .string(product.displayPrice)]),
      ]
      switch product.kind {
      case .consumable:
        entry["type"] = .string("consumable")
        entry["credits"] = credits[product.productID].map { .integer(Int64($0)) }
      case .nonConsumable:
        entry["type"] = .string("nonConsumable")
      }
      entries.append(.dictionary(entry))
    }
    return ["defaultStorefront": .string(storefront.code), "products": .array(entries)]
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
    // Xcode writes a new product with an empty displayName and description; Apple says only that
    // products "optionally have localizations"
    // (https://developer.apple.com/documentation/xcode/setting-up-storekit-testing-in-xcode).
    // A warning, not a refusal: the storefront shows the reference name (or the ID) instead.
    for localization in product.localizations where chosen[localization.language] == localization {
      let empty = [
        Self.isBlank(localization.displayName) ? "displayName" : nil,
        Self.isBlank(localization.description) ? "description" : nil,
      ].compactMap { $0 }
      guard !empty.isEmpty else { continue }
      let title = Self.isBlank(localization.displayName) ? product.standInName : localization.displayName
      notes.append(
        "\(name): localizations[\(localization.index)] (\(TerminalText.clipped(localization.locale))) has an empty \(empty.joined(separator: " and ")), as Xcode writes a new product; the storefront shows '\(TerminalText.clipped(title))' instead"
      )
    }
    return (chosen, notes)
  }

  static func isBlank(_ text: String) -> Bool { CatalogLoader.Reader.isBlank(text) }

  /// What the conversion left out or stood in for, in the file's order: for `catalog import` and
  /// `catalog check` to report.
  public var notes: [String] {
    var notes = products.flatMap { catalogLocalizations(of: $0).notes }
    if notes.count > TerminalText.listLength {
      let more = notes.count - TerminalText.listLength
      notes =
        Array(notes.prefix(TerminalText.listLength)) + ["and \(more) more \(more == 1 ? "note" : "notes") like these"]
    }
    if !subscriptions.isEmpty {
      let listed = subscriptions.prefix(TerminalText.listLength).map {
        "\(TerminalText.clipped($0.productID)) (\($0.place))"
      }
      notes.append("not sold here (subscriptions): \(TerminalText.listed(listed, total: subscriptions.count))")
    }
    // Xcode's files seen in the wild have versions 1.0 to 4.0; Apple documents none. 5 is read as
    // the same shape; a newer one is read too, with a warning that keys it adds are passed over.
    if let version, let major = Int(version.prefix { $0 != "." }), !(1...5).contains(major) {
      notes.insert(
        "version \(version) is not one of the formats monkeyshop knows (1 to 5): read as they are, keys it does not know passed over",
        at: 0)
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
