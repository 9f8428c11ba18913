import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a user can see of the ledger, read through the commands a user runs: the balance
/// (`wallet show --json`) and the store's transactions (`store transactions --json`).
struct LedgerView: Sendable, CustomStringConvertible {
  let balance: Int
  let transactions: [TransactionRecord]

  var description: String {
    "balance \(balance), transactions \(transactions.map(\.description).joined(separator: ", "))"
  }

  var ids: [String] { transactions.map(\.id) }

  /// Identifiers listed more than once.
  var repeatedIDs: [String] {
    Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
  }

  /// Purchased transactions the app has not finished.
  var unfinishedPurchases: [TransactionRecord] {
    transactions.filter { $0.state == "purchased" && !$0.finished }
  }

  /// Credits of the purchased transactions whose identifiers are not in `known`.
  func credits(ofPurchasesOtherThan known: Set<String>) -> Int {
    transactions.filter { $0.state == "purchased" && !known.contains($0.id) }.map(\.credits).reduce(0, +)
  }

  /// Reads both through the binary; fails with the command's output when either does not exit 0
  /// (a crash, a hang, or data the program refuses to read).
  static func read(_ folder: ShopFolder, timeout: Duration = .seconds(30)) async throws -> LedgerView {
    let wallet = try await monkeyshop("wallet", "show", "--json", in: folder, timeout: timeout)
    guard wallet.exitStatus == 0, let balance = try? MonkeyShopEndToEndTests.balance(fromJSON: wallet.stdout) else {
      throw E2EFailure("the wallet cannot be read: \(wallet)")
    }
    let store = try await monkeyshop("store", "transactions", "--json", in: folder, timeout: timeout)
    guard store.exitStatus == 0,
      let transactions = try? JSONDecoder().decode([TransactionRecord].self, from: Data(store.stdout.utf8))
    else {
      throw E2EFailure("the store cannot be read: \(store)")
    }
    return LedgerView(balance: balance, transactions: transactions)
  }
}

/// The transaction a `buy` reports ("purchased: transaction #N, balance …"), if it reports one.
func purchasedTransactionID(_ output: String) -> String? {
  guard let range = output.range(of: "purchased: transaction #") else { return nil }
  let digits = output[range.upperBound...].prefix { $0.isNumber }
  return digits.isEmpty ? nil : String(digits)
}

extension ShopFolder {
  /// Copies every file of another folder's data folder into this one's (made private, 0700, as
  /// monkeyshop makes it), so a prepared state can be reused without running the commands again.
  func restoreData(from template: ShopFolder) throws {
    let manager = FileManager.default
    try manager.createDirectory(at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for name in try manager.contentsOfDirectory(atPath: template.data.path) {
      try manager.copyItem(at: template.data.appendingPathComponent(name), to: data.appendingPathComponent(name))
    }
  }

  /// The data folder's path with symbolic links resolved, as the kernel (and strace's `-y`) shows it.
  var resolvedDataPath: String {
    guard let resolved = realpath(data.path, nil) else { return data.path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
