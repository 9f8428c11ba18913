import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

/// Everything the storefront and the walkthrough player show has Japanese, and names its keys from
/// the key table that binds them: the texts are read from the sources, so a new one is checked too.
@Suite("Every text in Japanese, every key from its table", .tags(.pure))
struct TextLanguageTests {
  /// The key names the storefront's and the player's tables write: `Tab`, `Enter`, `p`, `↓`. Digits
  /// and punctuation (`5`, `+`, `?`) are left out: in a text they are numbers and punctuation; so
  /// are `→` and `←`, which the log writes for "gives" (`→ balance 5`).
  static let keyNames: Set<String> = {
    let keys = KeyMap.bindings.flatMap(\.keys) + PlayerKeys.bindings.flatMap(\.keys)
    let names = keys.map(\.description) + PlayerKeys.bindings.flatMap(\.keys).map(PlayerKeyBinding.name(of:))
    return Set(names.filter { name in name.count > 1 || name.first.map { $0.isLetter || "↑↓⌫".contains($0) } == true })
  }()

  /// A key table's keys renamed to private-use characters, each binding its own.
  static func renamed(_ keys: [Key], binding: Int) -> [Key] {
    keys.indices.map { .character(Character(UnicodeScalar(0xE000 + binding * 4 + $0)!)) }
  }

  /// Whether a text names a renamed key.
  static func namesRenamedKey(_ text: String) -> Bool {
    text.unicodeScalars.contains { (0xE000..<0xE000 + 4 * 100).contains($0.value) }
  }

  static let pairs = try! SourceTexts.pairs()

  @Test("the sources hold the texts this test reads")
  func readsTheTexts() throws {
    // The reader finds what it must: a text of the storefront, of the player, of the log, of a key.
    let english = Self.pairs.flatMap(\.english)
    for text in [
      "Purchase of ⟦⟧ cancelled", "Walkthrough: ⟦⟧", "fed the monkey: -⟦⟧ → balance ⟦⟧", "transaction manager",
    ] {
      #expect(english.contains(text), "\(text)")
    }
    #expect(Self.pairs.count > 300)
  }

  @Test("every English text has a Japanese one: not empty, not the English, no English words in it")
  func everyTextHasJapanese() {
    var gaps: [String] = []
    for pair in Self.pairs {
      let english = pair.english.joined(separator: " ").replacingOccurrences(of: "⟦⟧", with: "")
      let japanese = pair.japanese.joined(separator: " ").replacingOccurrences(of: "⟦⟧", with: "")
      if japanese.trimmingCharacters(in: .whitespaces).isEmpty, !english.trimmingCharacters(in: .whitespaces).isEmpty {
        gaps.append("\(pair): no Japanese")
        continue
      }
      let words = pair.japanese.flatMap(TextCheck.englishWords)
      if !words.isEmpty { gaps.append("\(pair): English in Japanese: \(words.joined(separator: ", "))") }
    }
    #expect(gaps.isEmpty, "\(gaps.count) texts without Japanese:\n\(gaps.joined(separator: "\n"))")
  }

  @Test("a failure the storefront shows in Japanese is Japanese before the detail the store or the system gave")
  func everyFailureHasJapanese() {
    let words = Words(.ja)
    for id in ErrorID.allCases {
      let shown = words.shown(ShopFailure(id, "/data/store.json: writing failed")).message
      #expect(shown.hasSuffix(": /data/store.json: writing failed"), "\(id): \(shown)")
      let kind = String(shown.prefix(while: { $0 != ":" }))
      #expect(!kind.isEmpty && TextCheck.englishWords(kind).isEmpty, "\(id): \(shown)")
    }
  }

  @Test("the errors of the store, the wallet, a condition and a busy data folder have their Japanese")
  func shopErrorsHaveJapanese() {
    let date = Date(timeIntervalSince1970: 0)
    let errors: [any ShopError] = [
      CreditError.insufficientBalance(balance: -2, requested: 1),
      CreditError.insufficientBalance(balance: 0, requested: 1),
      CreditError.invalidAmount(0), CreditError.unknownProduct("x"),
      CreditError.unknownRefundedProduct(id: "1", product: "x"), CreditError.balanceOverflow,
      CreditError.notPurchased("1"), CreditError.notRefunded("1"),
      PaymentError.invalidQuantity(11), PaymentError.outOfTransactionNumbers,
      TransactionError.unknown("1"),
      TransactionError.wrongState(id: "1", operation: "approve", state: .failed, expected: "deferred"),
      TransactionError.noneToAct(operation: "approve", expected: "deferred"),
      TransactionError.alreadyRefunded(id: "1", on: date), TransactionError.restoredCopy(id: "2", purchase: "1"),
      TransactionError.outOfTransactionNumbers, TransactionError.refundRequested(id: "1", on: date),
      TransactionError.noRefundRequest(id: "1"), TransactionError.notRefunded(id: "1"),
      ConditionError.badValue("latency", "x", expected: "normal"),
      DataFolderBusy(path: "/data", holder: "pid 1"),
    ]
    for error in errors {
      let shown = Words(.ja).shown(ShopFailure(error)).message
      #expect(shown == error.japaneseMessage, "\(error)")
      #expect(shown != error.message && !shown.isEmpty, "\(error)")
    }
  }

  @Test("the shop's own failures are written in both languages: no ShopFailure of an English literal alone")
  func noFailureInEnglishAlone() throws {
    var english: [String] = []
    for file in SourceTexts.swiftFiles() {
      let text = try String(contentsOf: file, encoding: .utf8)
      var rest = text[...]
      while let call = rest.range(of: "ShopFailure(") {
        rest = rest[call.upperBound...]
        // `ShopFailure(.id, "…")`: the message is the argument after the first comma.
        guard let comma = rest.firstIndex(where: { $0 == "," || $0 == ")" }), rest[comma] == "," else { continue }
        let message = rest[rest.index(after: comma)...].drop { $0 == " " || $0 == "\n" }
        if message.first == "\"" {
          let line = text[..<call.lowerBound].filter { $0 == "\n" }.count + 1
          english.append("\(file.lastPathComponent):\(line): \(message.prefix(60))")
        }
      }
    }
    #expect(english.isEmpty, "\(english.joined(separator: "\n"))")
  }

  @Test("the words' files say nothing in English alone: every text goes through say or Phrase")
  func noEnglishOutsideSay() throws {
    let literals = try SourceTexts.looseLiterals(in: [
      "Words.swift", "Words+Notes.swift", "Words+Server.swift", "Words+Failures.swift", "PlayerWords.swift",
      "Notice.swift",
    ])
    let english = literals.filter { !$0.pieces.flatMap(TextCheck.englishWords).isEmpty }
    #expect(english.isEmpty, "\(english.map(\.description).joined(separator: "\n"))")
  }

  @Test("no text writes a key's name: each takes it from the key table")
  func noKeyNameWrittenOut() {
    #expect(Self.keyNames.isSuperset(of: ["Tab", "Enter", "Esc", "Space", "End", "p", "x", "q", "R", "↓", "Ctrl-C"]))
    var named: [String] = []
    for pair in Self.pairs {
      let names =
        pair.english.flatMap { TextCheck.keyNames($0, among: Self.keyNames, english: true) }
        + pair.japanese.flatMap { TextCheck.keyNames($0, among: Self.keyNames, english: false) }
      if !names.isEmpty { named.append("\(pair): names \(names.joined(separator: ", "))") }
    }
    #expect(named.isEmpty, "\(named.joined(separator: "\n"))")
  }

  @Test("no view or words file writes a key's name in a string of its own")
  func noKeyNameInViews() throws {
    let literals = try SourceTexts.looseLiterals(in: [
      "Words.swift", "Words+Notes.swift", "Words+Server.swift", "DownloadEvent.swift", "ShopView.swift",
      "OverlayView.swift", "ShopLayout.swift", "TransactionDetailView.swift", "Drawing.swift", "PlayerWords.swift",
      "PlayerView.swift", "PlayerUpdate.swift",
    ])
    #expect(literals.count > 50)
    let named = literals.filter { literal in
      literal.pieces.contains { !TextCheck.keyNames($0, among: Self.keyNames, english: true).isEmpty }
    }
    #expect(named.isEmpty, "\(named.map(\.description).joined(separator: "\n"))")
  }

  /// The storefront's table with every key renamed.
  static let renamedShopKeys: [KeyBinding] = KeyMap.bindings.enumerated().map { offset, binding in
    KeyBinding(
      renamed(binding.keys, binding: offset), binding.action,
      binding.context, hint: binding.hint, help: binding.help, inHintBar: binding.inHintBar,
      hintNow: binding.hintNow, whyNot: binding.whyNot)
  }

  @Test("a storefront text that names a key names the one the table binds", arguments: Language.allCases)
  func shopTextsFollowTheTable(language: Language) {
    let words = Words(language, keyMap: Self.renamedShopKeys)
    let product = { (id: String) in id }
    let texts =
      DownloadState.allCases.filter { $0 != .finished }.map(words.downloadState)
      + [
        words.scrolledBack(3), words.quitQuestion(purchaseInFlight: true), words.quitQuestion(purchaseInFlight: false),
        words.switchQuestion(to: .storeKit2, purchaseInFlight: true),
        words.switchQuestion(to: .storeKit2, purchaseInFlight: false),
        words.onlyQuitActs,
        words.reason(.requestFailed),
        words.notice(.waitingForApproval(transactionID: "1"), title: product),
        words.notice(.interrupted(transactionID: "1", .interrupted), title: product),
        words.notice(.productsFailed(.networkDown), title: product),
        words.downloadNote(.unfinishedForRetry(transactionID: "1")),
      ]
      + [
        DownloadNotice.downloading(product: "map"), .paused(product: "map"),
        .failed(product: "map", .notConnectedToInternet), .cancelled(product: "map"),
      ].map { words.downloadNotice($0, title: product) }
    for text in texts {
      #expect(TextCheck.keyNames(text, among: Self.keyNames, english: language == .en).isEmpty, "\(text)")
      #expect(Self.namesRenamedKey(text), "\(text)")
    }
  }

  @Test("a player text that names a key names the one the table binds", arguments: Language.allCases)
  func playerTextsFollowTheTable(language: Language) {
    let renamed = PlayerKeys.bindings.enumerated().map { offset, binding in
      PlayerKeyBinding(
        Self.renamed(binding.keys, binding: offset), binding.action,
        binding.context, hint: binding.hint, help: binding.help, inHintBar: binding.inHintBar,
        whyNot: binding.whyNot)
    }
    let words = PlayerWords(language, keyTable: renamed)
    let texts =
      [
        words.freePlayQuit, words.moreBelow, words.moreAbove, words.autoNext(in: 2), words.autoPaused,
        words.noAutoToPause, words.stepsPressKeys(key: "\u{E000}"),
        words.smallerThanNeeded(has: ScreenSize(width: 80, height: 20), needs: ScreenSize(width: 80, height: 30)),
        words.notRunning[1],
      ]
    for text in texts {
      #expect(TextCheck.keyNames(text, among: Self.keyNames, english: language == .en).isEmpty, "\(text)")
      #expect(Self.namesRenamedKey(text), "\(text)")
    }
  }
}
