/// A stable identifier for every error a user can see, quoted in bug reports and shown in the log.
/// Each one says how a command that fails with it exits.
public enum ErrorID: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  case productRequestFailed = "MS-E0001"
  case networkLostDuringPurchase = "MS-E0002"
  case purchasesRestricted = "MS-E0003"
  case purchaseCancelled = "MS-E0004"
  case askToBuyDeclined = "MS-E0005"
  case purchaseInterrupted = "MS-E0006"
  case forcedError = "MS-E0007"
  case productNotAvailable = "MS-E0008"
  case invalidQuantity = "MS-E0009"
  case insufficientBalance = "MS-E0010"
  case unreadableDataFile = "MS-E0011"
  case invalidCatalog = "MS-E0012"
  case unknownTransaction = "MS-E0013"
  case invalidCondition = "MS-E0014"
  case cannotWriteDataFile = "MS-E0015"
  case invalidAmount = "MS-E0016"
  case balanceOverflow = "MS-E0017"
  case dataFolderBusy = "MS-E0018"
  /// An option or argument the command refuses as given: options that clash, an output path that
  /// cannot be used, a quantity for a non-consumable.
  case invalidArgument = "MS-E0019"
  /// A purchase paid for and not yet delivered and finished (a download stopped, a transaction
  /// that failed verification, a delivery that did not end): the next launch takes it again.
  case deliveryIncomplete = "MS-E0020"
  /// A file the command was asked to write (`--out`, `--junit`, `--cast`, `--log-file`) that could
  /// not be written whole.
  case cannotWriteOutput = "MS-E0021"
  /// A walkthrough file that cannot be read as one.
  case invalidWalkthrough = "MS-E0022"
  /// A walkthrough whose check did not hold, or that cannot be found or played.
  case walkthroughFailed = "MS-E0023"
  /// No terminal to draw in (the storefront, `--play`).
  case terminalUnavailable = "MS-E0024"
  /// The server cannot listen where it was told to: the port is in use, or the host is not an
  /// address of this machine.
  case cannotListen = "MS-E0025"
  /// The server cannot start under the process's open-file limit (`ulimit -n`): too few file
  /// descriptors for its event loops, its files and one connection.
  case tooFewFileDescriptors = "MS-E0026"

  public var description: String { rawValue }

  /// The one rule from an error to a command's exit status: every failure a command ends with
  /// carries an ID, and its status comes from here alone. A catalog, wallet, store or walkthrough
  /// file that cannot be read or written is 65, a value the command line gave that the shop refuses 64, a
  /// service that cannot start (a port in use, too few file descriptors) 69, a lock held too long by
  /// another monkeyshop 75, anything else a failed operation, 1.
  public var exitStatus: ExitStatus {
    switch self {
    case .unreadableDataFile, .cannotWriteDataFile, .invalidCatalog, .invalidWalkthrough: .dataError
    case .invalidQuantity, .invalidAmount, .invalidCondition, .invalidArgument: .usage
    case .cannotListen, .tooFewFileDescriptors: .unavailable
    case .dataFolderBusy: .temporaryFailure
    case .productRequestFailed, .networkLostDuringPurchase, .purchasesRestricted, .purchaseCancelled,
      .askToBuyDeclined, .purchaseInterrupted, .forcedError, .productNotAvailable, .insufficientBalance,
      .unknownTransaction, .balanceOverflow, .deliveryIncomplete, .cannotWriteOutput, .walkthroughFailed,
      .terminalUnavailable:
      .failure
    }
  }
}

/// How a command ends when it fails, in the numbers of sysexits(3) that scripts test.
public enum ExitStatus: Int32, Sendable, CaseIterable {
  /// The purchase or operation did not succeed.
  case failure = 1
  /// A command-line argument or value that is refused (EX_USAGE).
  case usage = 64
  /// A catalog, wallet, store or walkthrough file that cannot be used (EX_DATAERR).
  case dataError = 65
  /// A service that cannot start: the server's port is in use (EX_UNAVAILABLE).
  case unavailable = 69
  /// Another monkeyshop held the data folder's lock for longer than a command waits (EX_TEMPFAIL).
  case temporaryFailure = 75
}
