import Foundation

/// Writes a catalog's property list as XML, laid out as the shipped `products.plist` is (tabs,
/// `productIdentifier` before `type`, English before other languages), so that a catalog made by
/// `catalog import` reads like one written by hand.
///
/// Foundation's writer orders keys as it likes and writes control characters raw. Here every
/// character a terminal acts on (`TerminalText.isControl`) that XML 1.0 allows — tab, line feed,
/// carriage return, C1 controls, bidirectional marks — is a character reference (`&#xA;`), which
/// the catalog loader, Foundation and other XML readers (Python's plistlib) read back to the same
/// text: the file is safe to print, and printing it changes nothing. A character XML 1.0 does not
/// allow at all, even as a reference (the other C0 controls, U+FFFE, U+FFFF), is never written:
/// the writer throws, naming where it is, rather than write a file other tools refuse.
enum PropertyListWriter {
  /// Text XML 1.0 cannot hold, and where it is in the property list (`products[0].localizations.en.title`).
  struct IllegalCharacter: Error, Equatable {
    let scalar: Unicode.Scalar
    let place: String
  }

  /// Keys in the order they are written; others follow in alphabetical order.
  static let keyOrder = [
    "defaultStorefront", "bundleIdentifier", "products", "productIdentifier", "type", "credits", "title",
    "description", "en", "localizations", "prices", "availableInStore",
  ]

  static func xml(_ root: PropertyListValue) throws(IllegalCharacter) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    try write(root, depth: 0, place: "", into: &text)
    text += "</plist>\n"
    return text
  }

  private static func write(_ value: PropertyListValue, depth: Int, place: String, into text: inout String)
    throws(IllegalCharacter)
  {
    let indent = String(repeating: "\t", count: depth)
    switch value {
    case .dictionary(let dictionary):
      text += "\(indent)<dict>\n"
      for key in dictionary.keys.sorted(by: precedes) {
        let inner = place.isEmpty ? key : "\(place).\(key)"
        text += "\(indent)\t<key>\(try escaped(key, at: inner))</key>\n"
        try write(dictionary[key]!, depth: depth + 1, place: inner, into: &text)
      }
      text += "\(indent)</dict>\n"
    case .array(let array):
      text += "\(indent)<array>\n"
      for (index, item) in array.enumerated() {
        try write(item, depth: depth + 1, place: "\(place)[\(index)]", into: &text)
      }
      text += "\(indent)</array>\n"
    case .boolean(let flag):
      text += "\(indent)<\(flag)/>\n"
    case .integer(let number):
      text += "\(indent)<integer>\(number)</integer>\n"
    case .oversizedInteger(let digits):
      text += "\(indent)<integer>\(digits)</integer>\n"
    case .real(let number):
      text += "\(indent)<real>\(number)</real>\n"
    case .string(let string):
      text += "\(indent)<string>\(try escaped(string, at: place))</string>\n"
    case .date(let date):
      text += "\(indent)<date>\(date.formatted(.iso8601))</date>\n"
    case .data(let data):
      text += "\(indent)<data>\(data.base64EncodedString())</data>\n"
    }
  }

  private static func precedes(_ first: String, _ second: String) -> Bool {
    let a = keyOrder.firstIndex(of: first) ?? keyOrder.count
    let b = keyOrder.firstIndex(of: second) ?? keyOrder.count
    return a != b ? a < b : first < second
  }

  /// XML's special characters as entities, and controls as character references (`XMLText`); a
  /// character XML 1.0 cannot hold is refused where it is.
  public static func escaped(_ text: String, at place: String) throws(IllegalCharacter) -> String {
    try XMLText.escaped(text) { scalar throws(IllegalCharacter) in
      throw IllegalCharacter(scalar: scalar, place: place)
    }
  }
}

extension StoreKitConfiguration {
  /// The catalog as `catalog import` writes it: an XML `products.plist` the catalog loader reads to
  /// the same catalog as `catalog(credits:)`, refused as that is.
  public func catalogPropertyList(credits: [String: Int]) throws(CatalogError) -> String {
    _ = try catalog(credits: credits)
    do {
      return try PropertyListWriter.xml(.dictionary(catalogRoot(credits: credits)))
    } catch {
      // The file's text is refused before it gets here (`refusal(of:lineBreaks:)`): this is the
      // writer keeping its own promise.
      throw CatalogError(
        path: path, key: error.place,
        problem: "holds \(Self.codePoint(error.scalar)), which XML 1.0 does not allow in a property list",
        expected: "text a products.plist can hold")
    }
  }
}
