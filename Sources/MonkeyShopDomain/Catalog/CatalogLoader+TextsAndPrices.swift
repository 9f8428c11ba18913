import Foundation

/// The texts and prices of one product of a catalog: each localization's title and description, and
/// each storefront's price in its currency's decimal places, read with the product and key named
/// when something is wrong.
extension CatalogLoader.Reader {
  func localizations(_ value: PropertyListValue?) throws(CatalogError) -> [String: Product.Localization] {
    guard let value else {
      throw fail("localizations", "missing", expected: "a dictionary with at least 'en'")
    }
    guard case .dictionary(let dictionary) = value else {
      throw fail("localizations", "is \(value.typeName)", expected: "a dictionary of locale → {title, description}")
    }
    guard dictionary["en"] != nil else {
      throw fail("localizations", "has no 'en'", expected: "at least an English title and description")
    }
    var result: [String: Product.Localization] = [:]
    result.reserveCapacity(dictionary.count)
    do {
      for (locale, entry) in dictionary {
        result[locale] = try localization(locale, entry)
      }
    } catch {
      // Of several bad locales, name the first in order, whatever order the dictionary keeps.
      for locale in dictionary.keys.sorted() { _ = try localization(locale, dictionary[locale]!) }
      throw error
    }
    return result
  }

  func localization(_ locale: String, _ entry: PropertyListValue) throws(CatalogError) -> Product.Localization {
    guard case .dictionary(let fields) = entry else {
      throw fail(
        "localizations.\(locale)", "is \(entry.typeName)", expected: "a dictionary with title and description")
    }
    let title = try string(fields, "title", at: "localizations.\(locale).")
    let description = try string(fields, "description", at: "localizations.\(locale).")
    return Product.Localization(title: title, description: description)
  }

  mutating func prices(_ value: PropertyListValue?) throws(CatalogError) -> [String: Decimal] {
    guard let value else {
      throw fail("prices", "missing", expected: "a dictionary of storefront → decimal string")
    }
    guard case .dictionary(let dictionary) = value else {
      throw fail("prices", "is \(value.typeName)", expected: "a dictionary of storefront → decimal string")
    }
    var result: [String: Decimal] = [:]
    result.reserveCapacity(dictionary.count)
    do {
      for (code, entry) in dictionary {
        result[code] = try price(code, entry)
      }
    } catch {
      // Of several bad prices, name the first in order, whatever order the dictionary keeps.
      for code in dictionary.keys.sorted() { _ = try price(code, dictionary[code]!) }
      throw error
    }
    return result
  }

  mutating func price(_ code: String, _ entry: PropertyListValue) throws(CatalogError) -> Decimal {
    // Known and written in capitals: the same as `Storefront.named(code) != nil` and
    // `code == code.uppercased()`, without uppercasing.
    guard let storefront = Storefront.withCode(code) else {
      throw fail(
        "prices.\(code)", "unknown storefront '\(TerminalText.clipped(code))'",
        expected: "one of \(Storefront.knownCodes)")
    }
    guard case .string(let text) = entry else {
      throw fail("prices.\(code)", "is \(entry.typeName)", expected: "a decimal string such as \"0.99\"")
    }
    let price: Decimal
    let places: Int
    if let known = decimals[text] {
      (price, places) = known
    } else {
      // Prices are shown through the platform's number formatting, which keeps 15 significant
      // digits: a longer price would be shown rounded (99999999999999.99 as $100,000,000,000,000).
      guard Self.significantDigits(text) <= Self.maximumSignificantDigits else {
        throw fail(
          "prices.\(code)",
          "'\(TerminalText.clipped(text))' has more than \(Self.maximumSignificantDigits) significant digits",
          expected: "a price shown exactly, such as \"9999.99\"")
      }
      guard let parsed = Self.decimal(text) else {
        throw fail(
          "prices.\(code)", "'\(TerminalText.clipped(text))' is not a decimal number",
          expected: "a decimal string such as \"0.99\"")
      }
      price = parsed
      places = Self.decimalPlaces(text)
      decimals[text] = (price, places)
    }
    guard price >= 0 else {
      throw fail("prices.\(code)", "'\(TerminalText.clipped(text))' is negative", expected: "a price of 0 or more")
    }
    // A price the currency cannot be charged in (0.19 yen) would be rounded when shown: refused.
    guard places <= storefront.minorUnitDigits else {
      let unit = storefront.unitName
      let digits = storefront.minorUnitDigits
      let has = "'\(TerminalText.clipped(text))' has \(counted(places, "decimal place"))"
      guard digits > 0 else {
        throw fail(
          "prices.\(code)", "\(has), but \(storefront.currencyCode) has no minor unit",
          expected: "a whole number of \(unit), such as \"160\"")
      }
      throw fail(
        "prices.\(code)", "\(has), but \(storefront.currencyCode) has \(digits)",
        expected: "at most \(digits) decimal places of \(unit), such as \"0.99\"")
    }
    return price
  }
}
