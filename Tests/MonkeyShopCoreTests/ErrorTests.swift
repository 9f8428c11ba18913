import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain
@testable import MonkeyShopStorage
@testable import MonkeyShopWalkthrough

private let sources = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Sources")

/// Every type of error a user can see, named as its declaration names it, with a value of each
/// case. A new `ShopError` must be added here: `everyConformerIsSampled` fails until it is.
private let samples: [(type: String, errors: [any ShopError])] = [
  ("ShopFailure", [ShopFailure.vanished("4"), ShopFailure(CreditError.balanceOverflow)]),
  (
    "CreditError",
    [
      CreditError.insufficientBalance(balance: 2, requested: 3), CreditError.invalidAmount(0),
      CreditError.unknownProduct("com.x"), CreditError.balanceOverflow, CreditError.notPurchased("7"),
    ]
  ),
  ("PaymentError", [PaymentError.invalidQuantity(11), PaymentError.outOfTransactionNumbers]),
  (
    "TransactionError",
    [
      TransactionError.unknown("9"),
      TransactionError.wrongState(id: "1", operation: "approve", state: .purchased, expected: "deferred"),
      TransactionError.noneToAct(operation: "resolve", expected: "interrupted"),
      TransactionError.outOfTransactionNumbers,
    ]
  ),
  ("ProductRequestError", [ProductRequestError.networkDown]),
  (
    "DataFileError",
    [
      DataFileError(path: "/data/wallet.json", problem: "is not UTF-8 text"),
      DataFileError(path: "/data/store.json", problem: "writing failed", errorID: .cannotWriteDataFile),
    ]
  ),
  ("DataFolderBusy", [DataFolderBusy(path: "/data", holder: "process 42")]),
  ("CatalogError", [CatalogError(path: "products.plist", product: "com.x", key: "credits", problem: "is 0")]),
  ("UnknownProductError", [UnknownProductError(identifier: "com.x", path: "products.plist", known: ["com.y"])]),
  (
    "AppStoreError",
    [StoreFailure]([
      .cancelled, .networkLost, .notAllowed, .productNotAvailable, .interrupted, .askToBuyDeclined,
      .forced(.server(.forgotPassword)),
    ]).map(\.error)
  ),
  (
    "ConditionError",
    [ConditionError.badValue("network", "sideways", expected: "up|down")]
  ),
]

@Suite("Errors: one protocol, one formatter, one exit status per ID", .tags(.pure))
struct ErrorTests {
  @Test(
    "every error ID exits with the status the README documents: 1 failed, 64 bad arguments, 65 data, 69 cannot listen, 75 busy"
  )
  func exitStatuses() {
    let documented: [ErrorID: Int32] = [
      .productRequestFailed: 1, .networkLostDuringPurchase: 1, .purchasesRestricted: 1, .purchaseCancelled: 1,
      .askToBuyDeclined: 1, .purchaseInterrupted: 1, .forcedError: 1, .productNotAvailable: 1,
      .invalidQuantity: 64, .insufficientBalance: 1, .unreadableDataFile: 65, .invalidCatalog: 65,
      .unknownTransaction: 1, .invalidCondition: 64, .cannotWriteDataFile: 65, .invalidAmount: 64,
      .balanceOverflow: 1, .dataFolderBusy: 75, .invalidArgument: 64, .deliveryIncomplete: 1,
      .cannotWriteOutput: 1, .invalidWalkthrough: 65, .walkthroughFailed: 1, .terminalUnavailable: 1,
      .cannotListen: 69, .tooFewFileDescriptors: 69,
    ]
    #expect(Set(documented.keys) == Set(ErrorID.allCases))
    for id in ErrorID.allCases {
      #expect(id.exitStatus.rawValue == documented[id], "\(id)")
    }
    #expect(ExitStatus.allCases.map(\.rawValue) == [1, 64, 65, 69, 75])
  }

  @Test("each error's message leaves out every ID; shown, it carries its own ID exactly once, at the end")
  func oneFormatter() {
    for (type, errors) in samples {
      for error in errors {
        let id = error.errorID.rawValue
        #expect(error.message.firstMatch(of: /MS-E[0-9]{4}/) == nil, "\(type): \(error.message)")
        #expect(error.formatted == error.message + " — " + id, "\(type)")
        #expect(error.formatted.components(separatedBy: id).count == 2, "\(type): \(error.formatted)")
        #expect(error.exitStatus == error.errorID.exitStatus)
        #expect(error.japaneseMessage?.firstMatch(of: /MS-E[0-9]{4}/) == nil, "\(type): \(error.message)")
        #expect(
          ShopFailure(error) == ShopFailure(error.errorID, message: error.message, japanese: error.japaneseMessage),
          "\(type)")
        #expect(error.description == error.formatted, "\(type)")
      }
    }
  }

  @Test("every type that conforms to ShopError in the sources is sampled here")
  func everyConformerIsSampled() throws {
    let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
    var conformers: Set<String> = []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for match in text.matches(of: /(?:struct|enum|class|extension)\s+(\w+)\s*:[^{]*\bShopError\b/) {
        conformers.insert(String(match.1))
      }
    }
    #expect(!conformers.isEmpty)
    #expect(conformers == Set(samples.map(\.type)))
  }

  @Test("errors read as they always have, each with its ID once at the end")
  func texts() {
    let texts: [(any ShopError, String)] = [
      (
        CreditError.insufficientBalance(balance: 0, requested: 3),
        "not enough monkey credits: 3 requested, 0 in the wallet — MS-E0010"
      ),
      (
        PaymentError.invalidQuantity(0),
        "invalid quantity 0: a payment buys 1 to 10 (Product.PurchaseError.invalidQuantity) — MS-E0009"
      ),
      (
        TransactionError.noneToAct(operation: "approve", expected: "deferred"),
        "no deferred transaction to approve — MS-E0013"
      ),
      (ProductRequestError.networkDown, "Cannot connect to iTunes Store — SKErrorDomain 0 unknown — MS-E0001"),
      (DataFileError(path: "/d/wallet.json", problem: "is empty"), "/d/wallet.json: is empty — MS-E0011"),
      (
        DataFolderBusy(path: "/d", holder: "process 42"),
        "gave up waiting for the lock on /d, held by process 42; nothing was changed, try again — MS-E0018"
      ),
      (
        CatalogError(
          path: "products.plist", product: "com.x", key: "credits", problem: "is 0", expected: "an integer ≥ 1"),
        "products.plist: product 'com.x', key 'credits': is 0 (expected an integer ≥ 1) — MS-E0012"
      ),
      (
        UnknownProductError(identifier: "com.x", path: "products.plist", known: ["com.a", "com.b"]),
        "unknown product 'com.x' in products.plist (expected one of: com.a, com.b) — MS-E0008"
      ),
      (
        StoreFailure.forced(.server(.unknownError)).error,
        "An unknown error has occurred — SSServerErrorDomain 5002 — MS-E0007"
      ),
      (
        ConditionError.badValue("network", "sideways", expected: "up|down"),
        "'sideways' is not a value of network (expected up|down) — MS-E0014"
      ),
    ]
    for (error, text) in texts {
      #expect(error.formatted == text)
    }
  }

  @Test("an error that is not the shop's has no ID of its own: it reads as an unreadable data file")
  func foreignError() {
    struct Elsewhere: Error {}
    #expect(ShopFailure(Elsewhere()).errorID == .unreadableDataFile)
  }
}
