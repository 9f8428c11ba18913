import Foundation

/// The storefront's UI language.
public enum Language: String, Sendable, CaseIterable {
  case en, ja

  /// `--lang`, else `LANG` / `LC_ALL` / `LC_MESSAGES` starting with `ja`, else English.
  public static func resolve(explicit: String?, environment: [String: String]) -> Language {
    if let explicit, let language = Language(rawValue: explicit.lowercased().prefix(2).description) {
      return language
    }
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name], !value.isEmpty {
        return value.lowercased().hasPrefix("ja") ? .ja : .en
      }
    }
    return .en
  }
}

/// A short text in both languages, for tables such as the key map.
public struct Phrase: Sendable {
  public let en: String
  public let ja: String

  public init(_ en: String, _ ja: String) {
    self.en = en
    self.ja = ja
  }

  public func text(_ language: Language) -> String { language == .ja ? ja : en }
}

/// A count and its English noun, singular for one: `1 credit`, `2 credits`, `3 steps`.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
