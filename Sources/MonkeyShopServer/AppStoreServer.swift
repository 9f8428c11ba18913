import Crypto
import Dispatch
import Foundation
import Hummingbird
import Logging
import MonkeyShopDomain
import MonkeyShopStorage
import NIOCore
import ServiceLifecycle
import Synchronization

/// `monkeyshop server`: Apple's App Store Server API over HTTP for the data folder's record
/// (docs/server.md), on Hummingbird.
public enum AppStoreServer {
  public struct Settings: Sendable {
    public var host: String
    public var port: Int
    public var folderPath: String
    public var catalog: Catalog
    /// The app's version, which the app transaction gives (Get App Transaction Info).
    public var applicationVersion: String
    /// How long a client may take to send a whole request (`RequestDeadline`).
    public var requestTimeout: Duration
    /// Work that runs as long as the server does, beside it (the notification sender), ended by
    /// task cancellation when the server stops.
    public var companions: [@Sendable () async throws -> Void]

    public init(
      host: String, port: Int, folderPath: String, catalog: Catalog, applicationVersion: String,
      requestTimeout: Duration = .seconds(10), companions: [@Sendable () async throws -> Void] = []
    ) {
      self.host = host
      self.port = port
      self.folderPath = folderPath
      self.catalog = catalog
      self.applicationVersion = applicationVersion
      self.requestTimeout = requestTimeout
      self.companions = companions
    }
  }

  /// The folder's In-App Purchase key, made once: a P-256 key for ES256 ("All JWTs must be signed
  /// with ES256 encryption",
  /// https://developer.apple.com/documentation/appstoreserverapi/generating-json-web-tokens-for-api-requests),
  /// kept as PKCS #8 PEM, as App Store Connect's `.p8` files are; a 10-character key ID and an issuer
  /// ID that is a UUID, as App Store Connect gives.
  public static func key(of folder: DataFolder) throws -> (key: InAppPurchaseKey, path: String, made: Bool) {
    try folder.inAppPurchaseKey {
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
      let keyID = String((0..<10).map { _ in alphabet.randomElement()! })
      return InAppPurchaseKey(
        keyID: keyID, issuerID: UUID().uuidString.lowercased(),
        pem: P256.Signing.PrivateKey().pemRepresentation + "\n")
    }
  }

  /// Whether the server may be reached from other machines at `host`.
  public static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// Why the server cannot listen where it was told to, from bind(2)'s error.
  public enum CannotListen: Error, Sendable {
    /// EADDRINUSE: another socket is bound to the port.
    case portInUse
    /// EADDRNOTAVAIL: the host is no address of this machine's.
    case notAnAddressHere
    /// EACCES: a port below 1024 without the privilege to bind it.
    case notPermitted
  }

  /// The process's open-file limit (`ulimit -n`) leaves the server fewer descriptors than it needs
  /// to start and serve one connection (`ConnectionLimit.needed`).
  public struct TooFewDescriptors: Error, Sendable, Equatable {
    public let limit: Int
    public let needed: Int
  }

  /// Serves until SIGINT or SIGTERM, then returns once every connection is closed. `listening` is
  /// told the address as soon as the port is bound (the real port when `port` is 0). A port that
  /// cannot be bound is `CannotListen`, when the system says why in a way it knows; an open-file
  /// limit it cannot start under, `TooFewDescriptors`, before anything starts.
  public static func run(
    _ settings: Settings, listening: @escaping @Sendable (String) -> Void
  ) throws {
    if let needed = ConnectionLimit.shortfall(folderPath: settings.folderPath) {
      throw TooFewDescriptors(limit: ConnectionLimit.openFileLimit, needed: needed)
    }
    let folder = DataFolder(path: settings.folderPath)
    let key = try Self.key(of: folder).key
    let outcome = Mutex<Result<Void, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      do {
        try await serve(settings, key: key, listening: listening)
        outcome.withLock { $0 = .success(()) }
      } catch let error as IOError where error.errnoCode == EADDRINUSE {
        outcome.withLock { $0 = .failure(CannotListen.portInUse) }
      } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
        outcome.withLock { $0 = .failure(CannotListen.notAnAddressHere) }
      } catch let error as IOError where error.errnoCode == EACCES {
        outcome.withLock { $0 = .failure(CannotListen.notPermitted) }
      } catch {
        outcome.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    try outcome.withLock { $0 }?.get()
  }

  static func serve(_ settings: Settings, key: InAppPurchaseKey, listening: @escaping @Sendable (String) -> Void)
    async throws
  {
    let bundleID = settings.catalog.bundleIdentifier
    let check = try await TokenCheck(key: key, bundleID: bundleID)
    let router = Router()
    router.add(middleware: Authentication(check: check))
    let source = RecordSource(
      folderPath: settings.folderPath, catalog: settings.catalog, applicationVersion: settings.applicationVersion)
    Routes(source: source, bundleID: bundleID).add(to: router)
    var logger = Logger(label: "monkeyshop.server")
    logger.logLevel = .error
    let host = settings.host
    let limit = TimeAmount(settings.requestTimeout)
    // The companions start once the port is bound: a server that cannot listen says only that,
    // not a line of work beside a server that never ran. One stream each, ended when it listens.
    let bound = settings.companions.map { _ in AsyncStream<Never>.makeStream() }
    let app = Application(
      router: router,
      server: .http1(configuration: .init(additionalChannelHandlers: [RequestDeadline(limit: limit)])),
      configuration: .init(
        address: .hostname(host, port: settings.port), serverName: nil,
        availableConnectionsDelegate: ConnectionLimit.delegate()),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? settings.port
        let shown = host.contains(":") ? "[\(host)]" : host
        listening("http://\(shown):\(port)")
        for gate in bound { gate.continuation.finish() }
      },
      logger: logger)
    // The server and its companions as one service group: Ctrl-C or SIGTERM ends them all.
    let services: [ServiceGroupConfiguration.ServiceConfiguration] =
      [.init(service: app)]
      + zip(settings.companions, bound).map { body, gate in
        .init(
          service: Companion {
            // Ends when the server listens, or at once when the group is cancelled.
            for await _ in gate.stream {}
            guard !Task.isCancelled else { return }
            try await body()
          })
      }
    let group = ServiceGroup(
      configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
  }
}

/// Work beside the server, cancelled when the server shuts down.
struct Companion: Service {
  let body: @Sendable () async throws -> Void

  func run() async throws {
    try await cancelWhenGracefulShutdown { try await body() }
  }
}

/// Every request's bearer token checked before its endpoint runs: 401 for a bad one. Apple
/// documents no body for a 401 (each endpoint page lists "401 Unauthorized: The JSON Web Token
/// (JWT) in the authorization header is invalid" with no error object); developers report a plain
/// text body, `Unauthenticated` and a request ID (a third party's observation, not Apple's word),
/// which is what is sent, without the ID.
struct Authentication: RouterMiddleware {
  let check: TokenCheck

  func handle(
    _ request: Request, context: BasicRequestContext,
    next: (Request, BasicRequestContext) async throws -> Response
  ) async throws -> Response {
    if await check.problem(authorization: request.headers[.authorization]) != nil {
      return Response(
        status: .unauthorized, headers: [.contentType: "text/plain"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: "Unauthenticated\n")))
    }
    return try await next(request, context)
  }
}
