/// The transactions the wallet has credited, by number, kept small whatever happens between
/// purchases: every number up to `through` is settled (credited, or failed, cancelled or declined,
/// which never needed tracking) but for the few in `uncredited`, which the store still held as able
/// to be credited (purchasing, deferred, paid for and not delivered), or refunded before delivery,
/// when `through` passed them. So 100,000 failed purchases between two credited ones leave
/// `{"through": 100002, "uncredited": []}`.
///
/// The wallet never forgets a credit: the store file can be deleted, reset half-way or replaced by
/// an older copy that lists a credited transaction as unfinished again, and only this record keeps
/// it from being credited twice. The price of forgetting failures: a failed payment that an older
/// copy of the store brings back as deferred is taken for settled, and never credited, on the side
/// of never crediting twice. So is a payment the store stopped listing before it was settled (a
/// store reset during its purchase) that an older copy of the store brings back.
public struct CreditedTransactions: Equatable, Sendable {
  /// Every transaction numbered up to here is settled, but for `uncredited`.
  public private(set) var through = 0
  /// Numbers up to `through`, in order, not credited and still to be watched.
  public private(set) var uncredited: [Int] = []

  public init() {}

  /// From the fields of a file; nil unless `uncredited` is in order, apart, and from 1 to `through`.
  public init?(through: Int, uncredited: [Int]) {
    guard (0...StoreState.transactionNumberLimit).contains(through) else { return nil }
    for (index, number) in uncredited.enumerated() {
      guard number >= 1, number <= through, index == 0 || uncredited[index - 1] < number else { return nil }
    }
    self.through = through
    self.uncredited = uncredited
  }

  /// A wallet before schema 4 listed every credited number: what it did not list up to its
  /// highest stays to be watched until the next change sees the store (`settle`).
  public init(upgrading runs: TransactionRuns) {
    through = runs.highest ?? 0
    var previous = 0
    for run in runs.runs {
      uncredited += Array(stride(from: previous + 1, to: run.lowerBound, by: 1))
      previous = run.upperBound
    }
  }

  public var highest: Int? { through > 0 ? through : nil }

  /// Whether the transaction counts as delivered: credited, or settled without credits.
  public func contains(_ number: Int) -> Bool {
    number >= 1 && number <= through && !isUncredited(number)
  }

  private func isUncredited(_ number: Int) -> Bool {
    var low = 0
    var high = uncredited.count
    while low < high {
      let middle = (low + high) / 2
      if uncredited[middle] < number { low = middle + 1 } else { high = middle }
    }
    return low < uncredited.count && uncredited[low] == number
  }

  /// Records a credit. Of the numbers it passes over, those in `watched` (the store may still
  /// credit them, or they were refunded before delivery) stay to be watched; the rest are settled.
  public mutating func insert(_ number: Int, watching watched: some Sequence<Int>) {
    guard number >= 1 else { return }
    if number <= through {
      uncredited.removeAll { $0 == number }
      return
    }
    let low = through
    let passed = Set(watched.filter { $0 > low && $0 < number })
    uncredited += passed.sorted()
    through = number
  }

  /// Forgets the watched numbers `isWatched` no longer names: settled since.
  public mutating func settle(_ isWatched: (Int) -> Bool) {
    uncredited.removeAll { !isWatched($0) }
  }
}

extension CreditedTransactions: Codable {
  enum CodingKeys: String, CodingKey, CaseIterable { case through, uncredited }

  public init(from decoder: any Decoder) throws {
    try refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let through = try container.decodeWholeNumber(forKey: .through, in: 0...StoreState.transactionNumberLimit)
    let uncredited = try container.decode([Int].self, forKey: .uncredited)
    guard let checked = CreditedTransactions(through: through, uncredited: uncredited) else {
      throw DecodingError.dataCorruptedError(
        forKey: .uncredited, in: container,
        debugDescription: "must be transaction numbers from 1 to through (\(through)), in order, each once")
    }
    self = checked
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(through, forKey: .through)
    try container.encode(uncredited, forKey: .uncredited)
  }
}
