import Foundation
import MonkeyShopDomain

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data folder's In-App Purchase key, which a developer's server signs its App Store Server API
/// tokens with: `SubscriptionKey_KEYID.p8` (PKCS #8 PEM, mode 0600), the name App Store Connect gives
/// the file it downloads, and `server-key.json`, which names the key ID and the issuer ID.
public struct InAppPurchaseKey: Codable, Equatable, Sendable {
  public var keyID: String
  public var issuerID: String
  /// The private key, PKCS #8 PEM.
  public var pem: String

  public init(keyID: String, issuerID: String, pem: String) {
    self.keyID = keyID
    self.issuerID = issuerID
    self.pem = pem
  }

  /// `SubscriptionKey_KEYID.p8`.
  public var fileName: String { "SubscriptionKey_\(keyID).p8" }

  static let recordName = "server-key.json"

  /// What `server-key.json` holds: the names, not the key.
  struct Record: Codable {
    var keyID: String
    var issuerID: String
  }
}

extension DataFolder {
  public static let consumptionName = "consumption.json"

  /// The folder's In-App Purchase key, made by `make` the first time and kept ever after. Under the
  /// folder's lock, as every change; the `.p8` is written first and `server-key.json` last, so a
  /// key is used only once both are whole (a `.p8` left by a run stopped between the two is never
  /// named, and a new key is made).
  public func inAppPurchaseKey(making make: () throws -> InAppPurchaseKey) throws -> (
    key: InAppPurchaseKey, path: String, made: Bool
  ) {
    try locked { folder in
      let recordFile = file(InAppPurchaseKey.recordName, in: folder)
      if let data = try recordFile.read() {
        let record: InAppPurchaseKey.Record
        do {
          record = try JSONDecoder().decode(InAppPurchaseKey.Record.self, from: data)
        } catch {
          throw DataFileError(path: recordFile.path, problem: "is not monkeyshop's key record (\(error))")
        }
        let key = InAppPurchaseKey(keyID: record.keyID, issuerID: record.issuerID, pem: "")
        guard InAppPurchaseKey.isKeyID(record.keyID) else {
          throw DataFileError(
            path: recordFile.path, problem: "names the key ID '\(record.keyID)', expected 10 letters and digits")
        }
        let keyFile = file(key.fileName, in: folder)
        guard let pem = try keyFile.read(ownerOnly: true), let text = String(data: pem, encoding: .utf8) else {
          throw DataFileError(
            path: keyFile.path,
            problem:
              "is missing while \(InAppPurchaseKey.recordName) names it; put it back, or remove \(InAppPurchaseKey.recordName) to make a new key (servers must then use the new one)"
          )
        }
        return (InAppPurchaseKey(keyID: record.keyID, issuerID: record.issuerID, pem: text), keyFile.path, false)
      }
      let key = try make()
      let keyFile = file(key.fileName, in: folder)
      try keyFile.replace(with: Data(key.pem.utf8))
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      let record = try encoder.encode(InAppPurchaseKey.Record(keyID: key.keyID, issuerID: key.issuerID))
      try recordFile.replace(with: record + Data("\n".utf8))
      return (key, keyFile.path, true)
    }
  }

  /// Every Send Consumption Information received (`consumption.json`), read without the lock like
  /// the store: the file is replaced whole. None when there is no file.
  public func readConsumptionReports() throws(DataFileError) -> ConsumptionReports {
    let read = try opened { folder throws(DataFileError) in try file(Self.consumptionName, in: folder).read() }
    guard let data = read ?? nil else { return ConsumptionReports() }
    return try decodeConsumption(data)
  }

  /// Adds one received Send Consumption Information, under the folder's lock, the file replaced whole.
  public func recordConsumption(_ report: ConsumptionReport) throws {
    try locked { folder in
      let consumption = file(Self.consumptionName, in: folder)
      var reports =
        try consumption.read().map { data throws(DataFileError) in try decodeConsumption(data) }
        ?? ConsumptionReports()
      reports.add(report)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      encoder.dateEncodingStrategy = .secondsSince1970
      try consumption.replace(with: try encoder.encode(reports) + Data("\n".utf8))
    }
  }

  private func decodeConsumption(_ data: Data) throws(DataFileError) -> ConsumptionReports {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    do {
      return try decoder.decode(ConsumptionReports.self, from: data)
    } catch {
      throw DataFileError(
        path: path + "/" + Self.consumptionName,
        problem: "is not a list of Send Consumption Information received (\(error)); move it away to start a new one")
    }
  }

  /// What identifies the record's files as they are now (each file's inode, size and change time):
  /// equal stamps mean nothing was written since, so what was read from them still holds. Every
  /// write replaces a file whole (a new inode) or commits to the record (its write-ahead log
  /// changes). The server's API and its notification sender read the folder again only when it
  /// changed; each takes the stamp before reading, so a write during a reading is read at the next.
  public func recordStamp() -> [Int64] {
    var stamp: [Int64] = []
    let record = TransactionRecord.name
    for name in ["store.json", record, record + "-wal", HistoryFile.name, "wallet.json"] {
      var info = stat()
      if stat(path + "/" + name, &info) == 0 {
        #if canImport(Glibc)
          let changed = info.st_ctim
        #else
          let changed = info.st_ctimespec
        #endif
        stamp += [Int64(info.st_ino), Int64(info.st_size), Int64(changed.tv_sec), Int64(changed.tv_nsec)]
      } else {
        stamp += [-1, -1, -1, -1]
      }
    }
    return stamp
  }
}

extension InAppPurchaseKey {
  /// Ten uppercase letters and digits, as App Store Connect's key IDs (`2X9R4HXF34` in Apple's
  /// example, https://developer.apple.com/documentation/appstoreserverapi/generating-json-web-tokens-for-api-requests).
  public static func isKeyID(_ text: String) -> Bool {
    text.count == 10 && text.allSatisfy { ($0.isASCII && $0.isUppercase && $0.isLetter) || ($0.isASCII && $0.isNumber) }
  }
}
