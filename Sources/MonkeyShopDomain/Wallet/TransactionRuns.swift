/// Transactions by number, as sorted runs (`[[1, 20], [22, 22]]`): the refunds the wallet took
/// back (`clawedBack`), and the credited transactions of wallets before schema 4. The wallet never
/// forgets one: the store file can be deleted, reset half-way or replaced by an older copy, and only
/// this record keeps a refund from being taken back twice.
public struct TransactionRuns: Equatable, Sendable {
  public private(set) var runs: [ClosedRange<Int>] = []

  public init() {}

  /// From runs as a file holds them; nil unless they are positive, sorted, apart and not adjacent.
  public init?(runs: [ClosedRange<Int>]) {
    for (index, run) in runs.enumerated() {
      guard run.lowerBound >= 1, run.upperBound <= StoreState.transactionNumberLimit else { return nil }
      // Apart and not touching: at least one number between two runs.
      if index > 0, run.lowerBound - runs[index - 1].upperBound < 2 { return nil }
    }
    self.runs = runs
  }

  public var highest: Int? { runs.last?.upperBound }

  public func contains(_ number: Int) -> Bool {
    // Binary search for the last run starting at or before `number`.
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].lowerBound <= number { low = middle + 1 } else { high = middle }
    }
    return low > 0 && runs[low - 1].contains(number)
  }

  public mutating func insert(_ number: Int) {
    guard number >= 1, !contains(number) else { return }
    // Usually the newest purchase: it extends or follows the last run.
    var index = runs.count
    while index > 0, runs[index - 1].lowerBound > number { index -= 1 }
    let joinsBefore = index > 0 && runs[index - 1].upperBound + 1 == number
    let joinsAfter = index < runs.count && runs[index].lowerBound - 1 == number
    switch (joinsBefore, joinsAfter) {
    case (true, true):
      runs[index - 1] = runs[index - 1].lowerBound...runs[index].upperBound
      runs.remove(at: index)
    case (true, false):
      runs[index - 1] = runs[index - 1].lowerBound...number
    case (false, true):
      runs[index] = number...runs[index].upperBound
    case (false, false):
      runs.insert(number...number, at: index)
    }
  }
}

extension TransactionRuns: Codable {
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var runs: [ClosedRange<Int>] = []
    while !container.isAtEnd {
      let pair = try container.decode([Int].self)
      guard pair.count == 2, pair[0] <= pair[1] else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "\(pair) is not a run [first, last] of transaction numbers")
      }
      runs.append(pair[0]...pair[1])
    }
    guard let checked = TransactionRuns(runs: runs) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription:
            "runs must be of numbers from 1 to \(StoreState.transactionNumberLimit), in order, apart and not touching"))
    }
    self = checked
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for run in runs { try container.encode([run.lowerBound, run.upperBound]) }
  }
}
