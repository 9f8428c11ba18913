import Foundation

// Apple-hosted content (docs/hosted-content.md), as StoreKit 1 downloads it. `SKDownload` and everything around
// it is deprecated ("SKDownload and its related functionality are deprecated. The following
// information is for apps that already host content on Apple's servers and use SKDownload.",
// https://developer.apple.com/documentation/storekit/unlocking-purchased-content; every symbol is
// available "iOS 6.0–16.0").

/// `SKDownloadState`, with Apple's raw values
/// (https://developer.apple.com/documentation/storekit/skdownloadstate).
public enum DownloadState: Int, Sendable, CaseIterable, CustomStringConvertible {
  /// "has not started yet"
  case waiting = 0
  /// "currently being downloaded"
  case active = 1
  /// "your app paused the download"
  case paused = 2
  /// "successfully downloaded"
  case finished = 3
  /// "an error occurred while the file was being downloaded"
  case failed = 4
  /// "your app canceled the download"
  case cancelled = 5

  public var description: String {
    switch self {
    case .waiting: "waiting"
    case .active: "active"
    case .paused: "paused"
    case .finished: "finished"
    case .failed: "failed"
    case .cancelled: "cancelled"
    }
  }

  /// Still moving or able to move on its own: waiting or active.
  public var isTransferring: Bool { self == .waiting || self == .active }
}

/// One `SKDownload` of a transaction: the app holds it while StoreKit downloads the content.
/// Its progress moves in `steps` equal steps, one every `Latency.downloadStep`, on the shop's
/// clock, so the same walkthrough logs the same lines every time.
public struct Download: Equatable, Sendable {
  public let transactionID: String
  /// `contentIdentifier`: the product's identifier.
  public let productIdentifier: String
  /// `contentVersion`, from the package's `ContentInfo.plist`.
  public let contentVersion: String
  /// `expectedContentLength`, in bytes.
  public let contentLength: Int
  public var state = DownloadState.waiting
  /// Steps received, 0…`steps`.
  public var stepsDone = 0
  /// Model time of the next step; nil unless waiting or active.
  public var nextStepAt: Int?
  /// `error`, valid when failed.
  public var error: DownloadError?
  /// Set once the content is in the data folder.
  public var installedAt: String?

  public static let steps = 4
  /// `SKDownloadTimeRemainingUnknown`: "If it cannot create a good estimate, the value of this
  /// property is set to SKDownloadTimeRemainingUnknown"
  /// (https://developer.apple.com/documentation/storekit/skdownload/timeremaining); −1 in the SDK.
  public static let timeRemainingUnknown: TimeInterval = -1

  public init(transactionID: String, productIdentifier: String, content: HostedContent) {
    self.transactionID = transactionID
    self.productIdentifier = productIdentifier
    contentVersion = content.contentVersion
    contentLength = content.byteCount
  }

  /// `progress`: "a floating point number between 0.0 and 1.0, inclusive"
  /// (https://developer.apple.com/documentation/storekit/skdownload/progress).
  public var progress: Double { Double(stepsDone) / Double(Self.steps) }

  /// `timeRemaining` in seconds at this step: unknown until the first bytes have arrived.
  public func timeRemaining(_ latency: Latency) -> TimeInterval {
    guard state == .active, stepsDone > 0 else { return Self.timeRemainingUnknown }
    return Double(Self.steps - stepsDone) * latency.downloadStep
  }

  /// Whether every step has arrived.
  public var isComplete: Bool { stepsDone >= Self.steps }
}

/// `SKDownload.error`: "The error that prevented the content from being downloaded"
/// (https://developer.apple.com/documentation/storekit/skdownload/error). Apple does not say which
/// errors a download fails with; a lost connection is shown as Foundation's own error for it,
/// `NSURLErrorDomain` −1009 `NSURLErrorNotConnectedToInternet` ("A network resource was requested,
/// but an internet connection has not been established and can't be established automatically",
/// https://developer.apple.com/documentation/foundation/nsurlerrornotconnectedtointernet-swift.var).
public enum DownloadError: Equatable, Sendable, CustomStringConvertible {
  case notConnectedToInternet
  /// The app could not put the content in place (its own error, not StoreKit's).
  case cannotInstall(String)

  public var description: String {
    switch self {
    case .notConnectedToInternet: "NSURLErrorDomain -1009 NSURLErrorNotConnectedToInternet"
    case .cannotInstall(let problem): problem
    }
  }
}

extension Latency {
  /// Seconds between two steps of a download's progress: a whole download takes
  /// `Download.steps` of them.
  public var downloadStep: TimeInterval {
    switch self {
    case .instant: 0
    case .normal: 0.5
    case .slow: 3
    }
  }
}
