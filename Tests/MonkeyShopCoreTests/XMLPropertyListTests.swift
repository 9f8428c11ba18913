import Foundation
import PropertyBased
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

// The fast XML reader must give exactly what Foundation's PropertyListSerialization gives, or nil
// so that the catalog loader asks Foundation. Every check here compares the two.

/// The repository's own `products.plist`, found from this file so the test runs from any directory.
private let shippedCatalogPath = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("products.plist").path

private func shippedCatalog() throws -> Data {
  try Data(contentsOf: URL(fileURLWithPath: shippedCatalogPath))
}

// MARK: Comparing

/// Foundation's reading of `data` (PropertyListSerialization), as a `PropertyListValue`; nil where
/// Foundation refuses it or gives a value no catalog holds (a keyed-archiver UID).
private func foundationValue(_ data: Data) -> PropertyListValue? {
  guard let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else {
    return nil
  }
  return typed(object)
}

/// Foundation's value with its type kept exactly: a Bool is not a number, an NSNumber is a real
/// only when its `objCType` is one, and an integer beyond Int64 is kept as written.
private func typed(_ value: Any) -> PropertyListValue? {
  let kind = type(of: value)
  if kind == Bool.self { return .boolean(value as! Bool) }
  if kind == String.self { return .string(value as! String) }
  if kind == Date.self { return .date(value as! Date) }
  if kind == Data.self { return .data(value as! Data) }
  if let number = value as? NSNumber {
    let code = String(cString: number.objCType)
    if code == "d" || code == "f" { return .real(number.doubleValue) }
    return Int64(number.description).map(PropertyListValue.integer) ?? .oversizedInteger(number.description)
  }
  if let array = value as? [Any] {
    var items: [PropertyListValue] = []
    for item in array {
      guard let typed = typed(item) else { return nil }
      items.append(typed)
    }
    return .array(items)
  }
  if let dictionary = value as? [AnyHashable: Any] {
    var entries: [String: PropertyListValue] = [:]
    for (key, item) in dictionary {
      guard let text = key.base as? String, let typed = typed(item), entries.updateValue(typed, forKey: text) == nil
      else { return nil }
    }
    return .dictionary(entries)
  }
  return nil
}

/// Whether two property-list values are the same to the last bit: reals bit for bit, strings and
/// keys scalar for scalar (not merely canonically equivalent, as `==` compares them).
private func samePlist(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
  switch (a, b) {
  case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
  case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
  case (.date(let x), .date(let y)):
    return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { samePlist($0, $1) }
  case (.dictionary(let x), .dictionary(let y)):
    let byScalars = {
      (first: (key: String, value: PropertyListValue), second: (key: String, value: PropertyListValue)) in
      first.key.unicodeScalars.lexicographicallyPrecedes(second.key.unicodeScalars)
    }
    let left = x.sorted(by: byScalars)
    let right = y.sorted(by: byScalars)
    return left.count == right.count
      && zip(left, right).allSatisfy { l, r in
        l.key.unicodeScalars.elementsEqual(r.key.unicodeScalars) && samePlist(l.value, r.value)
      }
  default: return a == b
  }
}

/// The one property every input must have: the fast reader never crashes, and gives either nil
/// or exactly Foundation's value — never a value where Foundation refuses the data.
@discardableResult
private func checkAgainstFoundation(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation)
  -> PropertyListValue?
{
  let fast = XMLPropertyList.parse(data)
  if let fast {
    let reference = foundationValue(data)
    #expect(reference != nil, "read data Foundation refuses", sourceLocation: sourceLocation)
    if let reference {
      #expect(samePlist(fast, reference), "read differently from Foundation", sourceLocation: sourceLocation)
    }
  }
  return fast
}

/// The catalog, or the error, the loader gives with the fast reader and with Foundation alone:
/// they must be the same.
private func checkLoaderAgrees(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
  let path = "/catalogs/products.plist"
  let fast = Result { () throws(CatalogError) in try CatalogLoader.parse(data, path: path, fastXML: true) }
  let reference = Result { () throws(CatalogError) in try CatalogLoader.parse(data, path: path, fastXML: false) }
  #expect(fast == reference, sourceLocation: sourceLocation)
}

private func xmlData(_ value: Any) throws -> Data {
  try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
}

/// A catalog of `count` products in the shape of the shipped one.
private func generatedCatalog(_ count: Int) -> [String: Any] {
  let products: [[String: Any]] = (0..<count).map { index in
    var product: [String: Any] = [
      "productIdentifier": "com.monkeyshop.bulk.\(index)", "type": "consumable", "credits": index % 50 + 1,
      "localizations": [
        "en": ["title": "Bulk pack \(index)", "description": "Credits in bulk & more, pack <\(index)>"],
        "ja": ["title": "モンキー \(index)", "description": "おさるのクレジット"],
      ],
      "prices": ["USA": "0.99", "JPN": "160", "GBR": "\(index % 7).49"],
    ]
    if index % 9 == 0 { product["availableInStore"] = index % 2 == 0 }
    return product
  }
  return ["defaultStorefront": "USA", "products": products]
}

// MARK: Random property lists

/// A property-list value the generators make: Sendable, which `Any` is not.
indirect enum PlistValue: Sendable {
  case string(String)
  case integer(Int)
  case real(Double)
  case boolean(Bool)
  case date(TimeInterval)
  case data([UInt8])
  case array([PlistValue])
  case dictionary([String: PlistValue])

  /// The value as PropertyListSerialization takes it.
  var foundation: Any {
    switch self {
    case .string(let text): text
    case .integer(let number): number
    case .real(let number): number
    case .boolean(let flag): flag
    case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
    case .data(let bytes): Data(bytes)
    case .array(let items): items.map(\.foundation)
    case .dictionary(let entries): entries.mapValues(\.foundation)
    }
  }

  /// Whether the value holds something the fast reader leaves to Foundation on purpose: a date or
  /// data, which no catalog holds, a string that starts with a byte order mark, which
  /// CoreFoundation drops, or a dictionary of a lone `CF$UID`, which it reads as a keyed-archiver
  /// UID.
  var isLeftToFoundation: Bool {
    switch self {
    case .date, .data: true
    case .string(let text): text.unicodeScalars.first == "\u{FEFF}"
    case .array(let items): items.contains { $0.isLeftToFoundation }
    case .dictionary(let entries):
      (entries.count == 1 && entries.keys.first == "CF$UID")
        || entries.contains { $0.key.unicodeScalars.first == "\u{FEFF}" || $0.value.isLeftToFoundation }
    default: false
    }
  }
}

/// Pieces of text that property lists and XML treat specially.
private let awkwardText: [String] = [
  "", " ", "  ", "\t", "\n", "\r", "\r\n", "&", "<", ">", "'", "\"", "&amp;", "&lt;", "&#65;", "]]>", "<![CDATA[",
  "<!--", "-->", "<?", "?>", "é", "e\u{301}", "モンキー", "🐒", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}", "\u{0}", "\u{1}",
  "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{10FFFF}", "0.99", "-5", "CF$UID", "USA",
]
private let awkward = Gen<String?>.element(of: awkwardText).map { $0! }
private let markup = Gen<String?>.element(of: ["<", ">", "&", "'", "\""]).map { $0! }
private let plainText = Gen.letterOrNumber.string(of: 1...10)
private let basicScalar = Gen.unicodeScalar(in: "\u{1}"..."\u{D7FF}")
private let otherScalar = Gen.unicodeScalar(in: "\u{E000}"..."\u{10FFFF}")
private let anyInteger = Gen.int(in: Int.min...Int.max)
private let smallInteger = Gen.int(in: -1_000...1_000)
private let edgeInteger = Gen<Int?>.element(of: [0, 1, -1, Int.min, Int.max, Int(Int32.max) + 1, -(1 << 53)]).map {
  $0!
}
private let anyReal = Gen.double(in: -1e300...1e300)
private let smallReal = Gen.double(in: -1_000...1_000)
private let edgeReal = Gen<Double?>.element(of: [
  0, 0.1, 1 / 3, .leastNormalMagnitude / 1_000, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e16, -2.5,
])
.map { $0! }
/// Seconds from 2001 to any moment of the years 1 to 9999.
private let anyMoment = Gen.double(in: -63_113_904_000...252_423_993_599)
private let someBytes = Gen.uint8(in: 0...255).array(of: 0...40)

private func randomText(_ rng: inout any SeededRandomNumberGenerator) -> String {
  var text = ""
  for _ in 0..<Int.random(in: 0...5, using: &rng) {
    switch Int.random(in: 0...4, using: &rng) {
    case 0: text += awkward.run(using: &rng)
    case 4: text += markup.run(using: &rng)
    case 1: text.unicodeScalars.append(basicScalar.run(using: &rng))
    case 2: text.unicodeScalars.append(otherScalar.run(using: &rng))
    default: text += plainText.run(using: &rng)
    }
  }
  return text
}

private func randomValue(depth: Int, _ rng: inout any SeededRandomNumberGenerator) -> PlistValue {
  let kinds = depth < 3 ? 0...9 : 0...7
  switch Int.random(in: kinds, using: &rng) {
  case 0, 1: return .string(randomText(&rng))
  case 2:
    switch Int.random(in: 0...2, using: &rng) {
    case 0: return .integer(anyInteger.run(using: &rng))
    case 1: return .integer(smallInteger.run(using: &rng))
    default: return .integer(edgeInteger.run(using: &rng))
    }
  case 3:
    switch Int.random(in: 0...2, using: &rng) {
    case 0: return .real(anyReal.run(using: &rng))
    case 1: return .real(smallReal.run(using: &rng))
    default: return .real(edgeReal.run(using: &rng))
    }
  case 4: return .boolean(Bool.random(using: &rng))
  case 5:
    let seconds = anyMoment.run(using: &rng)
    return .date(Bool.random(using: &rng) ? seconds.rounded(.down) : seconds)
  case 6, 7: return .data(someBytes.run(using: &rng))
  case 8: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(depth: depth + 1, &rng) })
  default:
    var entries: [String: PlistValue] = [:]
    for _ in 0..<Int.random(in: 0...4, using: &rng) {
      entries[randomText(&rng)] = randomValue(depth: depth + 1, &rng)
    }
    return .dictionary(entries)
  }
}

/// Random nested property lists, up to four levels deep.
private let randomPlist = Generator<PlistValue, Shrink.None<PlistValue>> { rng in
  Bool.random(using: &rng) ? randomValue(depth: 0, &rng) : .dictionary(["root": randomValue(depth: 0, &rng)])
}

// MARK: Property lists written by hand

/// A document written the many ways a person may write XML: entities, character references and
/// CDATA for any character, empty elements, whitespace inside tags, comments and processing
/// instructions between elements, with or without a declaration and DOCTYPE.
struct HandWrittenPlist: Sendable, CustomTestStringConvertible {
  var xml = ""
  /// Set where the document uses something the fast reader leaves to Foundation on purpose.
  var mayBeRefused = false
  var testDescription: String { xml.debugDescription }
}

private struct Writer {
  var document = HandWrittenPlist()
  var rng: any SeededRandomNumberGenerator

  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
  mutating func pick(_ choices: [String]) -> String { choices.randomElement(using: &rng)! }
  mutating func emit(_ text: String) { document.xml += text }

  mutating func space() {
    emit(pick(["", "", " ", "\n", "\n\t\t", "\r\n", "<!-- note -->", "\n<!-- a -- b -->\n", "<?monkey shop?>"]))
  }

  mutating func tagEnd() { emit(pick([">", ">", " >", "\n>", "\t >"])) }

  mutating func open(_ name: String) {
    emit("<" + name)
    tagEnd()
  }

  mutating func close(_ name: String) {
    emit("</" + name)
    tagEnd()
  }

  mutating func empty(_ name: String) { emit("<" + name + pick(["/>", " />", "\n/>"])) }

  mutating func write(_ value: PlistValue) {
    space()
    switch value {
    case .string(let text): writeText(text, tag: "string")
    case .integer(let number):
      open("integer")
      let zeros = chance(20) ? String(repeating: "0", count: Int.random(in: 1...3, using: &rng)) : ""
      emit(number < 0 ? "-" + zeros + "\(number.magnitude)" : zeros + "\(number)")
      close("integer")
    case .real(let number):
      open("real")
      var spelled = "\(number)"
      if chance(20) { spelled = spelled.replacingOccurrences(of: "e", with: "E") }
      if chance(10), number >= 0 { spelled = "+" + spelled }
      emit(spelled)
      close("real")
    case .boolean(let flag):
      if chance(70) {
        empty(flag ? "true" : "false")
      } else {
        emit(flag ? "<true></true>" : "<false></false>")
      }
    case .date:
      document.mayBeRefused = true  // no catalog holds a date: left to Foundation
      open("date")
      let year = Int.random(in: 1...9999, using: &rng)
      let month = Int.random(in: 1...12, using: &rng)
      let day = chance(90) ? Int.random(in: 1...28, using: &rng) : Int.random(in: 29...31, using: &rng)
      let time = (0..<3).map { index in Int.random(in: 0...(index == 0 ? 23 : 59), using: &rng) }
      func padded(_ number: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - "\(number)".count)) + "\(number)"
      }
      emit(
        "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
          + "\(padded(time[0], 2)):\(padded(time[1], 2)):\(padded(time[2], 2))Z")
      close("date")
    case .data(let bytes):
      document.mayBeRefused = true  // no catalog holds data: left to Foundation
      open("data")
      for character in Data(bytes).base64EncodedString() {
        if chance(10) { emit(pick([" ", "\n", "\t", "\r\n", "\n\t\t"])) }
        emit(String(character))
      }
      if chance(50) { emit("\n\t") }
      close("data")
    case .array(let items):
      if items.isEmpty, chance(50) {
        empty("array")
      } else {
        open("array")
        for item in items { write(item) }
        space()
        close("array")
      }
    case .dictionary(let entries):
      if entries.count == 1, entries.keys.first == "CF$UID" { document.mayBeRefused = true }
      if entries.isEmpty, chance(50) {
        empty("dict")
      } else {
        open("dict")
        for (key, item) in entries {
          space()
          writeText(key, tag: "key")
          write(item)
        }
        space()
        close("dict")
      }
    }
  }

  static let entities: [Unicode.Scalar: String] = [
    "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", "\"": "&quot;",
  ]

  mutating func writeText(_ text: String, tag: String) {
    if text.unicodeScalars.first == "\u{FEFF}" { document.mayBeRefused = true }
    if text.isEmpty, chance(50) {
      empty(tag)
      return
    }
    open(tag)
    let named = Self.entities
    for scalar in text.unicodeScalars {
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<4 where named[scalar] != nil:
        emit(named[scalar]!)
      case 0..<7 where scalar != "<" && scalar != "&":
        emit(String(scalar))
      case 0..<7:
        emit(named[scalar]!)
      case 7:
        let digits = String(scalar.value)
        emit(
          "&#" + String(repeating: "0", count: Int.random(in: 0...max(0, 8 - digits.count), using: &rng)) + digits + ";"
        )
        if [0, 0xFEFF, 0xFFFE].contains(scalar.value) { document.mayBeRefused = true }
      case 8:
        let digits = String(scalar.value, radix: 16, uppercase: chance(50))
        emit(
          "&#x" + String(repeating: "0", count: Int.random(in: 0...max(0, 8 - digits.count), using: &rng)) + digits
            + ";")
        if [0, 0xFEFF, 0xFFFE].contains(scalar.value) { document.mayBeRefused = true }
      default:
        emit("<![CDATA[" + String(scalar) + "]]>")
      }
    }
    close(tag)
  }

  mutating func plist(_ value: PlistValue) {
    emit(
      pick([
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n", #"<?xml version='1.0' encoding='utf-8'?>"#,
        #"<?xml version="1.0"?>"# + "\n", "",
      ]))
    if chance(70) {
      emit(#"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#)
    }
    emit(pick(["\n", "", "\n<!-- products for the monkey shop -->\n"]))
    emit(pick([#"<plist version="1.0">"#, "<plist>", "<plist\n  version=\"1.0\"\n>"]))
    write(value)
    space()
    close("plist")
    emit(pick(["\n", "", "\n<!-- end -->\n"]))
  }
}

private let handWrittenPlist = Generator<HandWrittenPlist, Shrink.None<HandWrittenPlist>> { rng in
  let value = randomValue(depth: 0, &rng)
  var writer = Writer(rng: rng)
  writer.plist(value)
  rng = writer.rng
  return writer.document
}

// MARK: Damaged documents

/// Bytes that matter to XML and UTF-8, to put into a valid document.
private let awkwardByte = Gen<UInt8?>.element(
  of: Array("<>/&;#x\"'=!?-[] \t\n\r0a".utf8) + [0x00, 0x80, 0xBF, 0xC3, 0xE3, 0xEF, 0xFE, 0xFF]
).map { $0! }

private enum Damage: CaseIterable, Sendable {
  case truncate, replace, insert, delete
}

private func damaged(_ bytes: [UInt8], _ damage: Damage, at position: Int, byte: UInt8) -> Data {
  var copy = bytes
  let index = min(position, copy.count - 1)
  switch damage {
  case .truncate: copy.removeSubrange(index...)
  case .replace: copy[index] = byte
  case .insert: copy.insert(byte, at: index)
  case .delete: copy.remove(at: index)
  }
  return Data(copy)
}

/// Pieces of plist syntax, to throw together at random.
private let tokens: [String] = [
  "<plist>", "</plist>", "<dict>", "</dict>", "<dict/>", "<array>", "</array>", "<array/>", "<key>", "</key>",
  "<key/>", "<string>", "</string>", "<string/>", "<integer>", "</integer>", "<real>", "</real>", "<true/>",
  "<false/>", "<true>", "</true>", "<date>", "</date>", "<data>", "</data>", "<!-- c -->", "<?pi x?>",
  "<![CDATA[", "]]>", "&amp;", "&lt;", "&#65;", "&#x1F412;", "&#0;", "&bogus;", "CF$UID", "a", "é", " ", "\n", "0",
  "-1", "1.5", "1e3", "nan", "2001-01-01T00:00:00Z", "aGVsbG8=", "=", "<", ">", "/", "&",
]
private let tokenSoup = Gen<String?>.element(of: tokens).map { $0! }.array(of: 0...24)

// MARK: Tests

@Suite("XML property lists", .tags(.pure))
struct XMLPropertyListTests {
  @Test("the shipped products.plist is read exactly as Foundation reads it, to the same catalog")
  func shippedCatalogIsReadAsFoundationReadsIt() throws {
    let data = try shippedCatalog()
    let fast = try #require(XMLPropertyList.parse(data))
    let reference = try #require(foundationValue(data))
    #expect(samePlist(fast, reference))
    guard case .dictionary = fast else {
      Issue.record("the root is \(fast.typeName)")
      return
    }
    checkLoaderAgrees(data)
  }

  @Test("generated catalogs are read by the fast reader, to Foundation's values", arguments: [1, 20, 2_000])
  func generatedCatalogs(_ count: Int) throws {
    let data = try xmlData(generatedCatalog(count))
    let fast = try #require(XMLPropertyList.parse(data))
    #expect(samePlist(fast, try #require(foundationValue(data))))
    checkLoaderAgrees(data)
    let catalog = try CatalogLoader.parse(data, path: "products.plist")
    #expect(catalog.products.count == count)
  }

  @Test("values come in Foundation's types: booleans apart from numbers, integers apart from reals")
  func shapes() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>string</key><string>a &amp; b</string>
        <key>empty</key><string/>
        <key>zero</key><integer>0</integer>
        <key>zeros</key><integer>-000</integer>
        <key>small</key><integer>5</integer>
        <key>negative</key><integer>-5</integer>
        <key>large</key><integer>9223372036854775807</integer>
        <key>smallest</key><integer>-9223372036854775808</integer>
        <key>real</key><real>1.5</real>
        <key>whole real</key><real>2</real>
        <key>true</key><true/>
        <key>false</key><false/>
        <key>array</key><array><integer>1</integer></array>
        <key>empty array</key><array/>
        <key>empty dict</key><dict/>
      </dict>
      </plist>
      """
    let data = Data(xml.utf8)
    guard case .dictionary(let fast)? = XMLPropertyList.parse(data),
      case .dictionary(let reference)? = foundationValue(data)
    else {
      Issue.record("not read as a dictionary")
      return
    }
    #expect(fast.count == 15)
    for (key, value) in reference {
      let mine = try #require(fast[key], "\(key)")
      #expect(samePlist(mine, value), "\(key): \(mine) against Foundation's \(value)")
    }
    #expect(fast["true"] == .boolean(true))
    #expect(fast["false"] == .boolean(false))
    #expect(fast["zero"] == .integer(0))
    #expect(fast["whole real"] == .real(2))
    #expect(fast["large"] == .integer(.max))
    #expect(fast["empty dict"] == .dictionary([:]))
  }

  @Test("a document nested 100,000 deep, or a binary plist that contains itself, is refused, never a crash or a hang")
  func hostileNestingIsRefused() throws {
    let deep = Data(
      ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>products</key>"
        + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
        + "</dict></plist>").utf8)
    // bplist00, one array whose one element is itself, its offset, and the trailer.
    var cycle = Data("bplist00".utf8) + Data([0xA1, 0x00, 0x08]) + Data(repeating: 0, count: 6) + Data([1, 1])
    for field: UInt64 in [1, 0, 10] { withUnsafeBytes(of: field.bigEndian) { cycle.append(contentsOf: $0) } }
    for data in [deep, cycle] {
      let error = try #require(throws: CatalogError.self) { try CatalogLoader.parse(data, path: "products.plist") }
      #expect(error.problem == "not a property list")
    }
  }

  @Test(
    "what the fast reader does not read is left to Foundation",
    arguments: [
      "<plist><dict><key>CF$UID</key><integer>3</integer></dict></plist>",
      "<plist><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>",
      "<plist><string>\u{FEFF}x</string></plist>",
      "<plist><string>&#xFEFF;x</string></plist>",
      "<plist><string>&#0;</string></plist>",
      "<plist><string>&#xD800;</string></plist>",
      "<plist><string>&#X41;</string></plist>",
      "<plist><string>&#123456789;</string></plist>",
      "<plist><string>&nbsp;</string></plist>",
      "<plist><integer>0x10</integer></plist>",
      "<plist><integer> 5</integer></plist>",
      "<plist><integer>+5</integer></plist>",
      "<plist><integer>9223372036854775808</integer></plist>",
      "<plist><real>nan</real></plist>",
      "<plist><real>-infinity</real></plist>",
      "<plist><real>.5</real></plist>",
      "<plist><real> 1</real></plist>",
      "<plist><date>2001-02-03T04:05:06Z</date></plist>",
      "<plist><data>aGVsbG8=</data></plist>",
      "<plist><array><date>2001-02-30T00:00:00Z</date></array></plist>",
      "<plist><dict><key>a</key><data/></dict></plist>",
      "<plist><key>k</key></plist>",
      "<plist><array><plist><true/></plist></array></plist>",
      "<plist><unknown/></plist>",
      "<plist><string lang=\"en\">x</string></plist>",
      "<dict><key>a</key><string>b</string></dict>",
      "<plist/>",
      "<plist><true/><true/></plist>",
      "<!DOCTYPE plist [ <!ENTITY x \"y\"> ]><plist><string>a</string></plist>",
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>caf\u{E9}</string></plist>",
      "\u{FEFF}<plist><string>a</string></plist>",
      "<!---->\n<plist><true/></plist>",
      "products: [5, 10]",
      "{ products = (); }",
      "",
    ])
  func leftToFoundation(_ text: String) throws {
    let data = Data(text.utf8)
    #expect(XMLPropertyList.parse(data) == nil)
    checkLoaderAgrees(data)
  }

  @Test(
    "a date or data, which no catalog holds, is refused naming the product, the key and what it is",
    arguments: [
      ("<key>credits</key><date>2024-01-01T00:00:00Z</date>", "credits", "is a date"),
      ("<key>credits</key><data>NQ==</data>", "credits", "is data"),
      (
        "<key>credits</key><integer>5</integer><key>availableInStore</key><date>2024-01-01T00:00:00Z</date>",
        "availableInStore", "is a date"
      ),
    ])
  func datesAndDataAreRefused(_ entry: String, _ key: String, _ problem: String) throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>products</key>
        <array>
          <dict>
            <key>productIdentifier</key><string>com.monkeyshop.credits.5</string>
            <key>type</key><string>consumable</string>
            \(entry)
            <key>localizations</key>
            <dict><key>en</key><dict><key>title</key><string>5</string><key>description</key><string>5</string></dict></dict>
            <key>prices</key><dict><key>USA</key><string>0.99</string></dict>
          </dict>
        </array>
      </dict>
      </plist>
      """
    let data = Data(xml.utf8)
    #expect(XMLPropertyList.parse(data) == nil)
    let error = try #require(throws: CatalogError.self) { try CatalogLoader.parse(data, path: "products.plist") }
    #expect(error.product == "com.monkeyshop.credits.5")
    #expect(error.key == key)
    #expect(error.problem == problem)
    checkLoaderAgrees(data)
  }

  @Test("binary, UTF-16 and invalid UTF-8 documents are left to Foundation")
  func otherEncodings() throws {
    let root = generatedCatalog(1)
    let binary = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    #expect(XMLPropertyList.parse(binary) == nil)
    checkLoaderAgrees(binary)

    let xml = String(decoding: try xmlData(root), as: UTF8.self)
    var utf16 = Data([0xFF, 0xFE])
    for unit in xml.utf16 { utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
    #expect(XMLPropertyList.parse(utf16) == nil)
    checkLoaderAgrees(utf16)

    let invalid = Data("<plist><string>caf".utf8) + Data([0xE9]) + Data("</string></plist>".utf8)
    #expect(XMLPropertyList.parse(invalid) == nil)
    checkAgainstFoundation(invalid)

    let deep = String(repeating: "<array>", count: 200) + String(repeating: "</array>", count: 200)
    let nested = Data(("<plist>" + deep + "</plist>").utf8)
    #expect(XMLPropertyList.parse(nested) == nil)
    checkAgainstFoundation(nested)
  }

  @Test(
    "the XML that people write is read as Foundation reads it",
    arguments: [
      "<plist><string>a&lt;b&gt;c&amp;d&apos;e&quot;f&#65;&#x42;&#x1f412;&#00000067;</string></plist>",
      "<plist><string><![CDATA[<dict> & ]]]><![CDATA[]]>x</string></plist>",
      "<plist><string>line\r\nbreaks\rkept\n</string></plist>",
      "<plist><string>  spaces  </string></plist>",
      "<plist><string>e\u{301} é \u{0} \u{1}</string></plist>",
      "<plist><string>x&#xFEFF;</string></plist>",
      "<plist ><array ><string >a</string ><true></true><false\n/><array/><dict /></array\n></plist>trailing junk",
      "<?xml version=\"1.0\"?><!-- a --><?pi?><!DOCTYPE plist><plist><!--b--><dict><?x?><key/><string/></dict></plist>",
      "<plist><dict><key>CF$UID</key><integer>3</integer><key>b</key><true/></dict></plist>",
      "<plist><dict><key>é</key><true/><key>e\u{301}</key><false/></dict></plist>",
      "<plist><array><integer>007</integer><integer>-0</integer><integer>-9223372036854775808</integer></array></plist>",
      "<plist><array><real>1e400</real><real>-1E-400</real><real>+0.5</real><real>-0</real><real>7</real></array></plist>",
    ])
  func handWritten(_ text: String) throws {
    let data = Data(text.utf8)
    _ = checkAgainstFoundation(data)
    // Whatever the reader says, the loader behaves as it did with Foundation alone.
    checkLoaderAgrees(data)
  }

  @Test("random property lists written by Foundation are read back as Foundation reads them")
  func randomPlistsWrittenByFoundation() async throws {
    await propertyCheck(count: 300, input: randomPlist) { value in
      let data = try xmlData(value.foundation)
      let fast = checkAgainstFoundation(data)
      if !value.isLeftToFoundation {
        #expect(fast != nil, "left to Foundation: \(String(decoding: data, as: UTF8.self).debugDescription)")
      }
    }
  }

  @Test("random property lists written by hand are read as Foundation reads them")
  func randomPlistsWrittenByHand() async throws {
    await propertyCheck(count: 300, input: handWrittenPlist) { document in
      let data = Data(document.xml.utf8)
      #expect(foundationValue(data) != nil, "Foundation refuses \(document.xml.debugDescription)")
      let fast = checkAgainstFoundation(data)
      if !document.mayBeRefused {
        #expect(fast != nil, "left to Foundation: \(document.xml.debugDescription)")
      }
    }
  }

  @Test("a damaged catalog is never read differently: the same values or errors as with Foundation, or refused")
  func damagedCatalogs() async throws {
    let bytes = Array(try shippedCatalog())
    await propertyCheck(
      count: 400, input: Gen<Damage>.case, Gen.int(in: 0...bytes.count - 1), awkwardByte
    ) { damage, position, byte in
      let data = damaged(bytes, damage, at: position, byte: byte)
      checkAgainstFoundation(data)
      checkLoaderAgrees(data)
    }
  }

  @Test("a damaged generated catalog is never read differently")
  func damagedGeneratedCatalogs() async throws {
    let bytes = Array(try xmlData(generatedCatalog(3)))
    await propertyCheck(
      count: 300, input: Gen<Damage>.case, Gen.int(in: 0...bytes.count - 1), Gen.uint8(in: 0...255)
    ) { damage, position, byte in
      let data = damaged(bytes, damage, at: position, byte: byte)
      checkAgainstFoundation(data)
      checkLoaderAgrees(data)
    }
  }

  @Test("random bytes never crash the reader, and are never read differently")
  func randomBytes() async {
    await propertyCheck(count: 300, input: Gen.uint8(in: 0...255).array(of: 0...200)) { bytes in
      checkAgainstFoundation(Data(bytes))
      checkAgainstFoundation(Data("<plist>".utf8 + bytes))
    }
  }

  @Test("random plist syntax never crashes the reader, and is never read differently")
  func randomTokens() async {
    await propertyCheck(count: 500, input: tokenSoup) { pieces in
      let body = pieces.joined()
      checkAgainstFoundation(Data(("<plist>" + body + "</plist>").utf8))
      checkAgainstFoundation(Data(("<plist><array>" + body + "</array></plist>").utf8))
      checkAgainstFoundation(Data(body.utf8))
    }
  }
}
