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
      switch Self.notificationURL(text) {
      case .success(let url): state.notifications.url = url
      case .failure(let problem):
        throw .badValue(rawValue, TerminalText.clipped(text), expected: problem.expected)
      }
    }
  }

  /// What is wrong with a URL given for notifications, as the expected value to say.
  public struct URLProblem: Error {
    public let expected: String
  }

  /// The URL as kept, or what it lacks: an http or https URL with a host, a port from 1 to 65535
  /// when it names one, and no user name or password (a receiver is reached as Apple's is, without
  /// credentials in the URL).
  public static func notificationURL(_ text: String) -> Result<String, URLProblem> {
    let general = URLProblem(expected: "an http:// or https:// URL, or none")
    guard !text.isEmpty, text.count <= 2048, !text.contains(where: { $0.isWhitespace || $0.isNewline }),
      let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
      ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
    else { return .failure(general) }
    if components.user != nil || components.password != nil {
      return .failure(URLProblem(expected: "a URL without a user name or password"))
    }
    if let port = components.port, !(1...65535).contains(port) {
      return .failure(URLProblem(expected: "a port from 1 to 65535"))
    }
    return .success(text)
  }
}
