import Foundation

/// A setting of the store that is not a test condition, set with `store set` and listed by
/// `store show` after the conditions: App Store Connect's settings, which `store reset` keeps.
public enum StoreSetting: String, CaseIterable, Sendable, CustomStringConvertible {
  /// App Store Connect's "Sandbox Server URL" for App Store Server Notifications
  /// (https://developer.apple.com/documentation/appstoreservernotifications/enabling-app-store-server-notifications):
  /// where the notifications go; `none`: nowhere, they wait.
  case notificationURL

  public var description: String { rawValue }

  public var values: String { "an http:// or https:// URL, or none" }

  public func value(in state: StoreState) -> String {
    switch self {
    case .notificationURL: state.notifications.url ?? "none"
    }
  }

  /// Sets it from a value as a user writes it, refusing anything else with what was expected.
  public func set(_ value: String, in state: inout StoreState) throws(ConditionError) {
    switch self {
    case .notificationURL:
      let text = value.trimmingCharacters(in: .whitespaces)
      if ["none", "off"].contains(text.lowercased()) {
        state.notifications.url = nil
        return
      }
      guard let url = Self.notificationURL(text) else {
        throw .badValue(rawValue, TerminalText.clipped(text), expected: values)
      }
      state.notifications.url = url
    }
  }

  /// The URL as kept, or nil when it is not an http or https URL with a host.
  static func notificationURL(_ text: String) -> String? {
    guard !text.isEmpty, text.count <= 2048, !text.contains(where: { $0.isWhitespace || $0.isNewline }),
      let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
      ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty, components.user == nil
    else { return nil }
    return text
  }
}
