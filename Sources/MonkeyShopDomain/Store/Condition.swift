/// One condition of the simulated store, as `monkeyshop store set`, walkthroughs, the conditions
/// bar and panel, and the storefront's switches name it. Its `descriptor` says how its value is
/// read, written, offered and shown, in both languages; adding a condition is one case here, its
/// descriptor, and its field in `Conditions`.
public enum Condition: String, CaseIterable, Sendable, CustomStringConvertible {
  case purchasesAllowed, network, askToBuy, interruptedPurchases, failNext, failAll, latency, storefront
  /// What the app's `SKPaymentQueueDelegate` answers to `paymentQueue(_:shouldContinue:in:)` when
  /// the storefront changes while a payment is in flight. Apple: "Return `false` to stop the
  /// transaction. The transaction will fail with the error `SKError.Code.storeProductNotAvailable`."
  /// https://developer.apple.com/documentation/storekit/skpaymentqueuedelegate/paymentqueue(_:shouldcontinue:in:)
  case continueOnStorefrontChange
  /// No payment sheet: a buy adds the payment at once, as if the person had tapped Buy, for fast
  /// demos. Xcode's StoreKit Testing has the same switch, `SKTestSession.disableDialogs`: "A Boolean
  /// value that determines whether the testing environment disables dialogs during automated
  /// testing. … The default value is `false`. Set this value to `true` when you run automated tests
  /// and want to suppress interactive dialogs."
  /// https://developer.apple.com/documentation/storekittest/sktestsession/disabledialogs
  case skipPaymentSheet
  /// The `environment` of signed transactions (docs/signing.md, `StoreEnvironment`).
  case environment
  /// `fail`: transactions completed from now on fail verification, as Xcode's StoreKit Testing
  /// fault "Fail Transaction Verification" does; a StoreKit 2 app receives them `.unverified`.
  case verification
  /// `SKIncludeConsumableInAppPurchaseHistory` in the app's Info.plist: "A Boolean value that
  /// determines whether StoreKit includes finished consumable In-App Purchases in transaction
  /// information. By default, this value is `false`. When it's `false`, StoreKit doesn't return
  /// finished consumables (unless refunded or revoked)" from `Transaction.all` and `latest(for:)`;
  /// `currentEntitlements` never holds consumables.
  /// https://developer.apple.com/documentation/bundleresources/information-property-list/skincludeconsumableinapppurchasehistory
  case includeConsumableHistory
  /// Which StoreKit the app is written with, 1 or 2 (`StoreKitAPI`); changing it restarts the app.
  case storeKit
  /// How App Store Server Notifications are retried: `none` (the sandbox's one attempt), `apple`
  /// (production's 1, 12, 24, 48 and 72 hours) or `fast` (the same in seconds); see
  /// `NotificationRetry`.
  case notificationRetry
  /// What the App Store does with a refund the customer requests (`store refund-request`): `ask`
  /// waits for `store refund-decide`, `grant` and `decline` decide at once.
  case refundDecision
  case crashPoint

  public var description: String { rawValue }

  /// Everything about this condition in one place: its name on the screen, its values and how they
  /// are spelt, read, written, offered and shown. `store set`, walkthroughs, the conditions bar
  /// and the panel all go through it.
  public var descriptor: ConditionDescriptor { Self.descriptors[self]! }

  /// Every condition's descriptor, made once: the conditions bar reads them on every frame.
  private static let descriptors = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.makeDescriptor()) })

  private func makeDescriptor() -> ConditionDescriptor {
    switch self {
    case .purchasesAllowed:
      ConditionDescriptor(
        label: Phrase("purchases", "購入"), isAlwaysShown: true,
        values: .flag(
          yes: "true", no: "false", shownYes: Phrase("allowed", "許可"), shownNo: Phrase("RESTRICTED", "制限中"),
          get: { $0.purchasesAllowed }, set: { $0.purchasesAllowed = $1 }))
    case .network:
      ConditionDescriptor(
        label: Phrase("network", "ネットワーク"), isAlwaysShown: true,
        values: .flag(
          yes: "up", no: "down", shownYes: Phrase("up", "接続"), shownNo: Phrase("DOWN", "切断"),
          get: { $0.networkUp }, set: { $0.networkUp = $1 }))
    case .askToBuy:
      ConditionDescriptor(
        label: Phrase("Ask to Buy", "承認と購入"), isAlwaysShown: true,
        values: .switch(get: { $0.askToBuy }, set: { $0.askToBuy = $1 }))
    case .interruptedPurchases:
      ConditionDescriptor(
        label: Phrase("interrupted", "中断"), isAlwaysShown: true,
        values: .switch(get: { $0.interruptedPurchases }, set: { $0.interruptedPurchases = $1 }))
    case .failNext:
      ConditionDescriptor(
        label: Phrase("fail next", "次を失敗"), isAlwaysShown: true,
        values: .errorCode(get: { $0.failNext }, set: { $0.failNext = $1 }))
    case .failAll:
      ConditionDescriptor(
        label: Phrase("fail all", "全て失敗"), isAlwaysShown: true,
        values: .errorCode(get: { $0.failAll }, set: { $0.failAll = $1 }))
    case .latency:
      ConditionDescriptor(
        label: Phrase("latency", "遅延"), isFault: false, isAlwaysShown: true,
        values: .oneOf(
          Latency.allCases.map { latency in
            ConditionChoice(
              latency.rawValue,
              shown: [
                "instant": Phrase("instant", "即時"), "normal": Phrase("normal", "通常"),
                "slow": Phrase("slow", "低速"),
              ][latency.rawValue],
              get: { $0.latency == latency }, set: { $0.latency = latency })
          }))
    case .storefront:
      ConditionDescriptor(
        label: Phrase("storefront", "ストアフロント"), isFault: false, isAlwaysShown: true, values: .storefront)
    case .continueOnStorefrontChange:
      ConditionDescriptor(
        label: Phrase("storefront change", "ストアフロント変更"),
        values: .flag(
          yes: "true", no: "false", shownYes: Phrase("continue", "続行"), shownNo: Phrase("STOP", "停止"),
          get: { $0.continueOnStorefrontChange }, set: { $0.continueOnStorefrontChange = $1 }))
    case .skipPaymentSheet:
      ConditionDescriptor(
        label: Phrase("skip sheet", "シート省略"), isFault: false,
        values: .switch(get: { $0.skipPaymentSheet }, set: { $0.skipPaymentSheet = $1 }))
    case .environment:
      ConditionDescriptor(
        label: Phrase("environment", "環境"), isFault: false,
        values: .oneOf(
          StoreEnvironment.allCases.map { environment in
            ConditionChoice(
              environment.rawValue, get: { $0.environment == environment }, set: { $0.environment = environment })
          }))
    case .verification:
      ConditionDescriptor(
        label: Phrase("verification", "検証"),
        values: .flag(
          yes: "pass", no: "fail", shownYes: Phrase("pass", "成功"), shownNo: Phrase("FAIL", "失敗"),
          get: { $0.verificationPasses }, set: { $0.verificationPasses = $1 }))
    case .includeConsumableHistory:
      ConditionDescriptor(
        label: Phrase("consumable history", "消耗型の履歴"), isFault: false,
        values: .switch(get: { $0.includeConsumableHistory }, set: { $0.includeConsumableHistory = $1 }))
    case .storeKit:
      ConditionDescriptor(
        label: Phrase("StoreKit", "StoreKit"), isFault: false,
        values: .oneOf(
          StoreKitAPI.allCases.map { api in
            // `2`, `StoreKit 2`, `sk2`, and nothing else.
            ConditionChoice(
              "\(api.rawValue)", also: ["storekit\(api.rawValue)", "sk\(api.rawValue)"],
              get: { $0.storeKit == api }, set: { $0.storeKit = api })
          }))
    case .notificationRetry:
      ConditionDescriptor(
        label: Phrase("notification retry", "通知の再送"), isFault: false,
        values: .oneOf(
          NotificationRetry.allCases.map { retry in
            ConditionChoice(
              retry.rawValue,
              shown: ["none": Phrase("none", "なし"), "apple": Phrase("apple", "Apple"), "fast": Phrase("fast", "高速")][
                retry.rawValue],
              get: { $0.notificationRetry == retry }, set: { $0.notificationRetry = retry })
          }))
    case .refundDecision:
      ConditionDescriptor(
        label: Phrase("refund decision", "返金の判断"), isFault: false,
        values: .oneOf(
          RefundDecision.allCases.map { decision in
            ConditionChoice(
              decision.rawValue,
              shown: ["ask": Phrase("ask", "確認"), "grant": Phrase("grant", "承認"), "decline": Phrase("decline", "却下")][
                decision.rawValue],
              get: { $0.refundDecision == decision }, set: { $0.refundDecision = decision })
          }))
    case .crashPoint:
      ConditionDescriptor(
        label: Phrase("crash", "クラッシュ"),
        values: .oneOf(
          [
            ConditionChoice(
              "off", also: ["none"], shown: Phrase("off", "オフ"), get: { $0.crashPoint == nil },
              set: { $0.crashPoint = nil })
          ]
            + CrashPoint.allCases.map { point in
              ConditionChoice(point.rawValue, get: { $0.crashPoint == point }, set: { $0.crashPoint = point })
            }))
    }
  }

  /// How its values are written in help and error messages.
  public var values: String {
    switch descriptor.values {
    case .flag(let flag): "\(flag.yes)|\(flag.no)"
    // `off`, where a list has it, last: the values first.
    case .oneOf(let choices):
      (choices.filter { $0.spelling != "off" } + choices.filter { $0.spelling == "off" }).map(\.spelling)
        .joined(separator: "|")
    case .errorCode: "CODE|off (\(StoreError.accepted))"
    case .storefront: "an App Store storefront (USA|JPN|CHN|…)"
    }
  }

  /// Its values in the order the conditions panel offers them.
  public func choices(_ catalog: Catalog) -> [String] {
    switch descriptor.values {
    // A switch offers off first; a flag its everyday value first.
    case .flag(let flag): flag.yes == "on" ? ["off", "on"] : [flag.yes, flag.no]
    case .oneOf(let choices): choices.map(\.spelling)
    case .errorCode: ["off"] + StoreError.allCases.map { "\($0.code)" }
    // Only storefronts the catalog prices something in: the store refuses the others.
    case .storefront: catalog.pricedStorefronts.map(\.code)
    }
  }

  /// Whether a value away from its default breaks purchases; storefront, latency and skipping the
  /// payment sheet are choices.
  public var isFault: Bool { descriptor.isFault }

  /// Whether the storefront's conditions bar always shows it: SKTestSession's everyday switches.
  /// The others show there only while away from their default.
  public var isAlwaysShown: Bool { descriptor.isAlwaysShown }

  /// Its value as `store show` prints it and `set` reads it back.
  public func value(in conditions: Conditions, defaultStorefront: Storefront) -> String {
    switch descriptor.values {
    case .flag(let flag): flag.get(conditions) ? flag.yes : flag.no
    case .oneOf(let choices): choices.first { $0.get(conditions) }?.spelling ?? ""
    case .errorCode(let get, _): get(conditions).map { "\($0.code)" } ?? "off"
    case .storefront: conditions.activeStorefront(default: defaultStorefront).code
    }
  }

  /// Its value as the conditions bar and panel show it, in a language: `DOWN`, `2 paymentCancelled`.
  public func shown(_ value: String, in language: Language) -> String {
    switch descriptor.values {
    case .flag(let flag):
      if value == flag.yes { return flag.shownYes.text(language) }
      if value == flag.no { return flag.shownNo.text(language) }
      return value
    case .oneOf(let choices): return choices.first { $0.spelling == value }?.shown?.text(language) ?? value
    case .errorCode:
      if value == "off" { return Phrase("off", "オフ").text(language) }
      // A forced error by its domain and name as well as its number: `2 paymentCancelled`,
      // `5002 SSServerErrorDomain`.
      guard let error = StoreError(argument: value) else {
        return value == "off" ? Phrase("off", "オフ").text(language) : value
      }
      switch error {
      case .storeKit(let code): return "\(code.rawValue) \(code.name)"
      case .server(let code): return "\(code.rawValue) \(error.domain.rawValue)"
      }
    case .storefront: return value
    }
  }

  /// Sets it from a value as a user writes it, refusing anything else with what was expected.
  public func set(_ value: String, in conditions: inout Conditions) throws(ConditionError) {
    let text = value.trimmingCharacters(in: .whitespaces)
    let lowered = text.lowercased()
    switch descriptor.values {
    case .flag(let flag):
      switch lowered {
      case flag.yes, "true", "on", "yes": flag.set(&conditions, true)
      case flag.no, "false", "off", "no": flag.set(&conditions, false)
      default: throw .badValue(rawValue, text, expected: "\(flag.yes)|\(flag.no)")
      }
    case .oneOf(let choices):
      let name = lowered.replacingOccurrences(of: " ", with: "")
      guard let choice = choices.first(where: { $0.accepts(name) }) else {
        throw .badValue(rawValue, text, expected: values)
      }
      choice.set(&conditions)
    case .errorCode(_, let set):
      if ["off", "none"].contains(lowered) { return set(&conditions, nil) }
      guard let code = StoreError(argument: text) else {
        throw .badValue(rawValue, text, expected: "an error code (\(StoreError.accepted)) or off")
      }
      set(&conditions, code)
    case .storefront:
      guard let storefront = Storefront.named(text) else {
        throw .badValue(rawValue, text, expected: "one of \(Storefront.knownCodes)")
      }
      conditions.storefront = storefront.code
    }
  }
}

/// One condition described: see `Condition.descriptor`.
public struct ConditionDescriptor: Sendable {
  /// Its name on the conditions bar and panel.
  public let label: Phrase
  /// Away from its default it breaks purchases (shown in red); the others are choices.
  public let isFault: Bool
  /// The conditions bar always shows it; the rarer ones show there only while set.
  public let isAlwaysShown: Bool
  public let values: ConditionValues

  init(label: Phrase, isFault: Bool = true, isAlwaysShown: Bool = false, values: ConditionValues) {
    self.label = label
    self.isFault = isFault
    self.isAlwaysShown = isAlwaysShown
    self.values = values
  }
}

/// The kinds of value a condition takes.
public enum ConditionValues: Sendable {
  /// Two values, `true`/`false`, `up`/`down`, `pass`/`fail` or `on`/`off` (true, false, on, off,
  /// yes and no are accepted for every flag).
  case flag(ConditionFlag)
  /// One of a list: the latency, the environment, the StoreKit, the crash point.
  case oneOf([ConditionChoice])
  /// An SKError or App Store server error code, or off.
  case errorCode(
    get: @Sendable (Conditions) -> StoreError?, set: @Sendable (inout Conditions, StoreError?) -> Void)
  /// A storefront by its code.
  case storefront

  /// A switch, `on`/`off`.
  static func `switch`(
    get: @escaping @Sendable (Conditions) -> Bool, set: @escaping @Sendable (inout Conditions, Bool) -> Void
  ) -> ConditionValues {
    .flag(.init(yes: "on", no: "off", shownYes: Phrase("ON", "オン"), shownNo: Phrase("off", "オフ"), get: get, set: set))
  }

  static func flag(
    yes: String, no: String, shownYes: Phrase, shownNo: Phrase, get: @escaping @Sendable (Conditions) -> Bool,
    set: @escaping @Sendable (inout Conditions, Bool) -> Void
  ) -> ConditionValues {
    .flag(.init(yes: yes, no: no, shownYes: shownYes, shownNo: shownNo, get: get, set: set))
  }
}

public struct ConditionFlag: Sendable {
  public let yes: String
  public let no: String
  public let shownYes: Phrase
  public let shownNo: Phrase
  let get: @Sendable (Conditions) -> Bool
  let set: @Sendable (inout Conditions, Bool) -> Void
}

public struct ConditionChoice: Sendable {
  /// As `store set` and walkthroughs write it.
  public let spelling: String
  /// Other spellings accepted (lower case, no spaces).
  let also: [String]
  /// As the screen shows it, when not as spelt.
  public let shown: Phrase?
  let get: @Sendable (Conditions) -> Bool
  let set: @Sendable (inout Conditions) -> Void

  init(
    _ spelling: String, also: [String] = [], shown: Phrase? = nil, get: @escaping @Sendable (Conditions) -> Bool,
    set: @escaping @Sendable (inout Conditions) -> Void
  ) {
    self.spelling = spelling
    self.also = also
    self.shown = shown
    self.get = get
    self.set = set
  }

  func accepts(_ name: String) -> Bool { spelling.lowercased() == name || also.contains(name) }
}

/// `network: down`: a condition and the value a walkthrough or `store set` gives it.
public struct ConditionSetting: Hashable, Sendable, CustomStringConvertible {
  public var condition: Condition
  public var value: String

  public init(_ condition: Condition, _ value: String) {
    self.condition = condition
    self.value = value
  }

  public var description: String { "\(condition) = \(value)" }
}

public enum ConditionError: ShopError, Equatable {
  case badValue(String, String, expected: String)

  public var errorID: ErrorID { .invalidCondition }

  public var message: String { phrase.en }
  public var japaneseMessage: String? { phrase.ja }

  private var phrase: Phrase {
    switch self {
    case .badValue(let name, let value, let expected):
      Phrase(
        "'\(value)' is not a value of \(name) (expected \(expected))", "'\(value)' は \(name) の値ではありません (\(expected))")
    }
  }
}
