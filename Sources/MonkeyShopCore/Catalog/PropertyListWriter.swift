import Foundation

/// Writes a catalog's property list as XML, laid out as the shipped `products.plist` is (tabs,
/// `productIdentifier` before `type`, English before other languages), so that a catalog made by
/// `catalog import` reads like one written by hand.
///
/// Foundation's writer orders keys as it likes and writes control characters raw, which no XML
/// reader takes back; here every character a terminal acts on (`TerminalText.isControl`) is a
/// character reference (`&#x1B;`), which the catalog loader and Foundation read back to the same
/// text: the file is safe to print, and printing it changes nothing.
enum PropertyListWriter {
  /// Keys in the order they are written; others follow in alphabetical order.
  static let keyOrder = [
    "defaultStorefront", "bundleIdentifier", "products", "productIdentifier", "type", "credits", "title",
    "description", "en", "localizations", "prices", "availableInStore",
  ]

  static func xml(_ root: [String: Any]) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    write(root, depth: 0, into: &text)
    text += "</plist>\n"
    return text
  }

  private static func write(_ value: Any, depth: Int, into text: inout String) {
    let indent = String(repeating: "\t", count: depth)
    switch value {
    case let dictionary as [String: Any]:
      text += "\(indent)<dict>\n"
      for key in dictionary.keys.sorted(by: precedes) {
        text += "\(indent)\t<key>\(escaped(key))</key>\n"
        write(dictionary[key]!, depth: depth + 1, into: &text)
      }
      text += "\(indent)</dict>\n"
    case let array as [Any]:
      text += "\(indent)<array>\n"
      for item in array { write(item, depth: depth + 1, into: &text) }
      text += "\(indent)</array>\n"
    case let flag as Bool:
      text += "\(indent)<\(flag)/>\n"
    case let number as Int:
      text += "\(indent)<integer>\(number)</integer>\n"
    default:
      text += "\(indent)<string>\(escaped("\(value)"))</string>\n"
    }
  }

  private static func precedes(_ first: String, _ second: String) -> Bool {
    let a = keyOrder.firstIndex(of: first) ?? keyOrder.count
    let b = keyOrder.firstIndex(of: second) ?? keyOrder.count
    return a != b ? a < b : first < second
  }

  /// XML's special characters as entities, and controls as character references.
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case _ where TerminalText.isControl(scalar):
        result += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension StoreKitConfiguration {
  /// The catalog as `catalog import` writes it: an XML `products.plist` the catalog loader reads to
  /// the same catalog as `catalog(credits:)`, refused as that is.
  public func catalogPropertyList(credits: [String: Int]) throws(CatalogError) -> String {
    _ = try catalog(credits: credits)
    return PropertyListWriter.xml(catalogRoot(credits: credits))
  }
}
