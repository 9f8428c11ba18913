import AsyncHTTPClient
import Foundation
import MonkeyShopDomain
import MonkeyShopSigning
import MonkeyShopStorage
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends the data folder's App Store Server Notifications V2 to its `notificationURL`, as the App
/// Store does (docs/notifications.md): each a POST of `{"signedPayload": …}` ("The App Store
/// delivers JSON objects using an HTTP POST to your server",
/// https://developer.apple.com/documentation/appstoreservernotifications/receiving-app-store-server-notifications);
/// an answer from 200 to 206 delivers it, anything else is a failed attempt, retried by the
/// `notificationRetry` condition with the same `notificationUUID`. Every attempt is recorded in
/// the folder, under its lock, as it ends. It follows what other processes do to the folder by
/// looking every `pollInterval` at what changed (`DataFolder.recordStamp`, the rule the server's
/// API reads by) and reading the folder only when a file changed, a retry fell due or an attempt
/// ended: an idle sender reads nothing. A receiver that hangs holds up only its own notification
/// (each attempt has a timeout, which ends it whatever the receiver does, and several go at once).
/// A connection this process cannot open for want of a file descriptor is no attempt: the
/// notification waits and is tried again (`DescriptorShortage`).
public enum NotificationSender {
  public struct Options: Sendable {
    /// How often the folder is read for notifications due.
    public var pollInterval: Duration
    /// How long a receiver may take to answer. Apple does not say how long it waits.
    public var timeout: Duration
    /// How many notifications are in flight at most.
    public var concurrency: Int
    /// Reads what is to be done: the folder's `notificationWork(at:)` (a test counts the readings).
    var read: @Sendable (DataFolder, Date) throws -> NotificationWork = { try $0.notificationWork(at: $1) }

    public init(pollInterval: Duration = .milliseconds(200), timeout: Duration = .seconds(30), concurrency: Int = 8) {
      self.pollInterval = pollInterval
      self.timeout = timeout
      self.concurrency = concurrency
    }
  }

  /// Sends until cancelled (the task running it is cancelled: Ctrl-C, SIGTERM, a server stopping).
  /// `log` is told each attempt: `App Store Server Notification REFUND → http://127.0.0.1:9000/ ·
  /// 200 · attempt 1`, and any problem reading the folder (the sender goes on). `warn` is told,
  /// once until a connection opens again, that none could be opened for want of a file descriptor.
  public static func run(
    folder path: String, options: Options = Options(), log: @escaping @Sendable (String) -> Void,
    warn: @escaping @Sendable (String) -> Void
  ) async throws {
    var configuration = HTTPClient.Configuration()
    // "CIRCULAR_REDIRECT: … detected a continual redirect": redirects are followed, cycles refused.
    configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
    configuration.timeout = HTTPClient.Configuration.Timeout(
      connect: timeAmount(min(options.timeout, .seconds(10))), read: timeAmount(options.timeout))
    // A receiver that refuses the connection is a failed attempt at once (SOCKET_ISSUE), retried on
    // Apple's schedule: the client's own retrying of the connection would hold the attempt until
    // the connect timeout, and a `fast` retry due in 1 s would come 10 s late.
    configuration.connectionPool.retryConnectionEstablishment = false
    // A connection kept for the next notification holds a file descriptor. When one connection
    // cannot be opened for want of descriptors, the client fails every request waiting for one,
    // and the connections already opening are kept idle: for the client's default minute they
    // would hold the descriptors the folder is read and each attempt recorded with. A burst of
    // notifications still goes over the same connections.
    configuration.connectionPool.idleTimeout = .seconds(1)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let flight = InFlight()
    var lastProblem: String?
    // One sender per folder: held from the first round that gets it until the sender stops.
    var claim: SenderClaim?
    var waitedForAnother = false
    // One folder object for every reading, so the record's connection stays open between them, as
    // the API's does: SQLite removes `record.sqlite-wal` when its last connection closes, and a
    // reading that closed its own would change the stamp it is compared by.
    let reader = DataFolder(path: path)
    // The last reading: the files' stamp taken before it, its number, and what it found.
    var known: (stamp: [Int64], read: Int, work: NotificationWork)?
    // Whether the folder could not be opened for want of a file descriptor, told once until a
    // round goes through: the round waits `DescriptorShortage.pause` and is tried again.
    var shortageTold = false
    while !Task.isCancelled {
      var short = false
      do {
        // A lock file deleted or replaced (its folder removed and made again) no longer keeps
        // another server from sending: claim the folder's lock file again. A folder that cannot be
        // opened to tell throws, and the claim is kept.
        if let held = claim, try !held.holds() {
          claim = nil
          log("notifications: notification-sender.lock was deleted or replaced; claiming the sending again")
        }
        if claim == nil {
          switch try DataFolder(path: path).claimSending() {
          case .success(let claimed)?:
            claim = claimed
            known = nil
            if waitedForAnother { log("notifications: the other server stopped; this one sends them now") }
          case .failure(let busy)?:
            waitedForAnother = true
            throw busy
          case nil:
            // No folder yet: nothing to send, and the claim is made once there is one.
            break
          }
        }
        // The stamp is taken before reading: a change made while the folder is read changes the
        // stamp after it, so the next round reads again. Nothing changed, no retry due and no
        // attempt ended: what was read still holds.
        let now = Date()
        let stamp = reader.recordStamp()
        let read: Int
        let work: NotificationWork
        if let known, known.stamp == stamp, known.work.nextDate.map({ $0 > now }) ?? true,
          await !flight.ended(since: known.read)
        {
          (read, work) = (known.read, known.work)
        } else {
          known = nil
          read = await flight.beginReading()
          work = try options.read(reader, now)
          known = (stamp, read, work)
        }
        if claim != nil { lastProblem = nil }
        shortageTold = false
        if let held = claim, try held.holds(), let url = work.url {
          for delivery in work.due {
            guard await flight.start(delivery.pending.number, read: read, limit: options.concurrency) else { continue }
            let task = Task {
              let shortage = await send(
                delivery, to: url, client: client, folder: path, timeout: options.timeout, log: log)
              if await flight.end(delivery.pending.number, shortage: shortage), let shortage {
                warn(shortage.warning(url: url))
              }
            }
            await flight.keep(task, for: delivery.pending.number)
          }
        }
      } catch {
        if let shortage = DescriptorShortage(error) {
          // No descriptor to open the folder with: nothing is known of it, and nothing is taken
          // for deleted, replaced or refused.
          if !shortageTold { warn(shortage.folderWarning(path: path)) }
          shortageTold = true
          short = true
        } else {
          // Said once until it changes: a folder being replaced, a file refused.
          let problem = "\(error)"
          if problem != lastProblem { log("notifications: \(problem)") }
          lastProblem = problem
        }
      }
      do {
        try await Task.sleep(for: short ? DescriptorShortage.pause : options.pollInterval)
      } catch {
        break
      }
    }
    await flight.cancelAll()
    try await client.shutdown()
    withExtendedLifetime(claim) {}
  }

  /// A notificationURL no request can go to.
  struct UnusableURL: Error, CustomStringConvertible {
    let expected: String
    var description: String { "the notificationURL cannot be used (expected \(expected))" }
  }

  /// One attempt at one notification, recorded as it ends; or, when this process had no file
  /// descriptor to connect with, no attempt: that shortage, and nothing recorded.
  static func send(
    _ delivery: NotificationDelivery, to url: String, client: HTTPClient, folder path: String, timeout: Duration,
    log: @escaping @Sendable (String) -> Void
  ) async -> DescriptorShortage? {
    let started = Date()
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.headers.add(name: "User-Agent", value: "monkeyshop App Store Server Notifications")
    let body = Data("{\"signedPayload\":\"\(delivery.signedPayload)\"}".utf8)
    request.body = .bytes(ByteBuffer(bytes: body))
    var attempt: SendAttempt
    do {
      // A URL `store set` would refuse (a folder written by hand, or by an older monkeyshop) is a
      // failed attempt, never handed to the HTTP client: a port beyond 65535 stops it with a trap.
      if case .failure(let problem) = StoreSetting.notificationURL(url) {
        throw UnusableURL(expected: problem.expected)
      }
      // The status line decides the attempt, as soon as it arrives: "Use HTTP status codes to
      // indicate whether the App Store server notification post succeeded … Your server isn't
      // required to return a data value"
      // (https://developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications).
      // Apple does not say that it reads a body; the sender never waits for one. The response is
      // dropped unread here, which ends the request and closes a connection whose body is still
      // coming: the timeout, which runs until the head, bounds the whole attempt, and a receiver
      // that answers and then trickles its body holds nothing.
      let status = Int(try await client.execute(request, timeout: timeAmount(timeout)).status.code)
      attempt = SendAttempt(date: started, result: .forStatus(status), url: url, httpStatus: status)
    } catch {
      if let shortage = DescriptorShortage(error) { return shortage }
      attempt = SendAttempt(date: started, result: result(of: error), url: url, detail: "\(error)")
    }
    if Task.isCancelled, attempt.result != .success {
      // Stopped mid-send: not an attempt the receiver failed; it is sent again at the next start.
      return nil
    }
    // An attempt made is recorded: when no file descriptor is left to open the folder with, the
    // record waits `DescriptorShortage.pause` and is tried again, rather than the attempt being
    // lost (and the notification sent again as if never tried).
    while true {
      do {
        let folder = DataFolder(path: path)
        // A change signs what it completes, as every command's does.
        folder.signer = FolderSigner()
        let updated = try folder.recordSendAttempt(attempt, number: delivery.pending.number)
        let count = (updated?.sendAttempts.count).map { "attempt \($0)" } ?? "attempt"
        let said = attempt.line(
          notificationType: delivery.pending.notificationType, transactionID: delivery.pending.transactionID)
        var line = "\(said) · \(count)"
        if attempt.result != .success {
          line +=
            updated?.nextAttemptDate.map { " · next retry at \(ISO8601.string(from: $0))" } ?? " · no retry left"
        }
        log(line)
      } catch {
        if DescriptorShortage(error) != nil, !Task.isCancelled {
          try? await Task.sleep(for: DescriptorShortage.pause)
          continue
        }
        log(
          "notifications: the attempt at notification \(delivery.pending.notificationUUID) could not be recorded: \(error)"
        )
      }
      return nil
    }
  }

  /// Apple's `sendAttemptResult` for an attempt that got no HTTP answer
  /// (https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult).
  static func result(of error: any Error) -> SendAttemptResult {
    if let error = error as? HTTPClientError {
      switch error {
      case .readTimeout, .connectTimeout, .deadlineExceeded, .writeTimeout, .tlsHandshakeTimeout:
        return .timedOut
      case .redirectCycleDetected, .redirectLimitReached: return .circularRedirect
      case .remoteConnectionClosed: return .prematureClose
      case .bodyLengthMismatch, .contentLengthMissing, .identityCodingIncorrectlyPresent: return .invalidResponse
      default: return .other
      }
    }
    if error is HTTPParserError { return .invalidResponse }
    if error is NIOConnectionError || error is IOError { return .socketIssue }
    if let error = error as? ChannelError {
      switch error {
      case .connectTimeout: return .timedOut
      case .eof, .inputClosed, .outputClosed, .alreadyClosed, .ioOnClosedChannel: return .prematureClose
      default: return .socketIssue
      }
    }
    // NIOSSL's errors (the client's TLS), by name: the package is not linked here for them alone.
    if String(reflecting: type(of: error)).contains("NIOSSL") { return .tlsIssue }
    return .other
  }

  static func timeAmount(_ duration: Duration) -> TimeAmount {
    let (seconds, attoseconds) = duration.components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}

/// The notifications being sent, so one is never sent twice at once and no more than the limit go.
actor InFlight {
  private var numbers: Set<Int> = []
  private var tasks: [Int: Task<Void, Never>] = [:]
  /// Each reading of the folder is numbered; a notification whose attempt ended during or after
  /// reading `reading` was read before its attempt was recorded, and is not sent again from it.
  private var reading = 0
  private var endedDuring: [Int: Int] = [:]
  /// Notifications that found no file descriptor to connect with, and when each is tried again.
  private var heldUntil: [Int: ContinuousClock.Instant] = [:]
  /// Whether a shortage of descriptors was told and no attempt was made since.
  private var shortageTold = false

  /// Called before the folder is read: the reading's number, for `start`.
  func beginReading() -> Int {
    reading += 1
    return reading
  }

  /// Whether `number`, read in reading `read`, may be sent now: not in flight, not ended since the
  /// reading began (the folder read then did not hold that attempt yet), and under the limit.
  func start(_ number: Int, read: Int, limit: Int) -> Bool {
    guard !numbers.contains(number), numbers.count < limit else { return false }
    if let ended = endedDuring[number], ended >= read { return false }
    if let held = heldUntil[number] {
      guard held <= .now else { return false }
      heldUntil[number] = nil
    }
    numbers.insert(number)
    return true
  }

  func keep(_ task: Task<Void, Never>, for number: Int) {
    if numbers.contains(number) { tasks[number] = task }
  }

  /// Whether an attempt ended during or after reading `read`: what that reading found is out of date.
  func ended(since read: Int) -> Bool { endedDuring.values.contains { $0 >= read } }

  /// `number`'s sending ended: with an attempt, or with no descriptor to connect with (`shortage`),
  /// when it waits `DescriptorShortage.pause` before it is tried again. Whether the shortage is
  /// to be told: the first since an attempt was made.
  func end(_ number: Int, shortage: DescriptorShortage?) -> Bool {
    numbers.remove(number)
    tasks[number] = nil
    guard shortage != nil else {
      endedDuring[number] = reading
      // Only the readings still being used matter: the loop reads one at a time.
      endedDuring = endedDuring.filter { $0.value >= reading - 1 }
      shortageTold = false
      return false
    }
    // No attempt, so nothing recorded: the reading that found it still holds, and it is tried
    // again from it, not from a new reading of the folder, which would want descriptors of its own
    // (the files of the folder) while the connections the client keeps hold the last ones.
    heldUntil[number] = .now + DescriptorShortage.pause
    defer { shortageTold = true }
    return !shortageTold
  }

  func cancelAll() async {
    let running = Array(tasks.values)
    for task in running { task.cancel() }
    for task in running { await task.value }
  }
}
