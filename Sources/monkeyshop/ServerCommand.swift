import ArgumentParser
import Foundation
import MonkeyShopDomain
import MonkeyShopNotifications
import MonkeyShopServer
import MonkeyShopStorage

/// `monkeyshop server`: Apple's App Store Server API for the data folder's App Store, for a
/// developer's server under test (docs/server.md).
struct ServerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "server",
    abstract: "Serve Apple's App Store Server API for the data folder's App Store, over HTTP.",
    discussion: """
      Requests are authenticated as Apple's: a bearer JWT signed with the folder's In-App Purchase key \
      (`monkeyshop server key` prints it). See docs/server.md.

      Exit status: 0 stopped by Ctrl-C or SIGTERM, 64 bad arguments, 65 unreadable data, 69 it cannot \
      listen (the port is in use, or the host is not an address of this machine) or start (too few \
      file descriptors: `ulimit -n`).
      """,
    subcommands: [Serve.self, Key.self],
    defaultSubcommand: Serve.self)

  struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Serve until Ctrl-C or SIGTERM (the default).")

    @Option(help: "The address to listen on; anything but loopback is reachable from other machines.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (printed).")
    var port = 8080

    @Option(
      help: ArgumentHelp(
        "Seconds a notification receiver may take to answer before the attempt is TIMED_OUT (Apple does not say how long it waits).",
        valueName: "seconds"))
    var notificationTimeout: Double = 30

    @Option(
      help: ArgumentHelp(
        "Seconds a client may take to send a whole request before its connection is closed (Apple does not say how long it waits).",
        valueName: "seconds"))
    var requestTimeout: Double = 10

    @OptionGroup var options: ShopOptions

    func validate() throws {
      guard (0...65535).contains(port) else {
        throw ValidationError("--port \(port): expected 0 to 65535")
      }
      guard notificationTimeout > 0, notificationTimeout <= 3600 else {
        throw ValidationError(
          "--notification-timeout \(notificationTimeout): expected seconds from more than 0 to 3600")
      }
      guard requestTimeout > 0, requestTimeout <= 3600 else {
        throw ValidationError("--request-timeout \(requestTimeout): expected seconds from more than 0 to 3600")
      }
    }

    func run() throws {
      let catalog = try options.loadCatalog()
      let folder = options.dataFolder
      try options.checkDataFiles(folder)
      // App Store Server Notifications V2 go out from the server process, as from Apple's
      // (docs/notifications.md): each attempt is a line of its output; no file descriptor left to
      // connect with, a warning on standard error.
      let path = folder.path
      let sending = NotificationSender.Options(timeout: .milliseconds(Int64(notificationTimeout * 1000)))
      let settings = AppStoreServer.Settings(
        host: host, port: port, folderPath: path, catalog: catalog, applicationVersion: MonkeyShop.version,
        requestTimeout: .milliseconds(Int64(requestTimeout * 1000)),
        companions: [
          {
            try await NotificationSender.run(
              folder: path, options: sending, log: { Output.say($0) },
              warn: { Output.warn("monkeyshop: warning: \($0)") })
          }
        ])
      let host = host
      do {
        try AppStoreServer.run(settings) { address in
          // Once it listens: a host it cannot listen on is told as such, not as listening.
          if !AppStoreServer.isLoopback(host) {
            Output.warn(
              "monkeyshop: warning: listening on \(TerminalText.escaped(host)), which other machines may reach: anyone there with the key can read this App Store's record"
            )
          }
          say("listening on \(address)")
        }
      } catch let error as any ShopError {
        throw error
      } catch let error as AppStoreServer.CannotListen {
        throw Failure("server: \(why(error))", .cannotListen)
      } catch let error as AppStoreServer.TooFewDescriptors {
        throw Failure(
          "server: this process may open \(error.limit) files (`ulimit -n`), and the server needs \(error.needed) to start and hold one connection (its event loops, the data folder's files, the listening socket); raise the limit to \(error.needed) or more (such as `ulimit -n 1024`) before starting monkeyshop server",
          .tooFewFileDescriptors)
      } catch {
        throw Failure(
          "server: cannot serve on \(TerminalText.escaped(host)) port \(port): \(TerminalText.escaped("\(error)"))",
          .cannotListen)
      }
    }

    /// Why it cannot listen, and the option that chooses another place.
    private func why(_ error: AppStoreServer.CannotListen) -> String {
      let host = TerminalText.escaped(host)
      let another = "pick another with --port, or --port 0 for a free one"
      return switch error {
      case .portInUse: "port \(port) on \(host) is in use (another program is listening there); \(another)"
      case .notAnAddressHere:
        "\(host) is not an address of this machine; give one of its own with --host, such as 127.0.0.1"
      case .notPermitted: "port \(port) on \(host) needs privileges this user does not have (below 1024); \(another)"
      }
    }
  }

  /// `server key`: the folder's In-App Purchase key, made once, and what a server needs to use it.
  struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "key",
      abstract:
        "Print the data folder's In-App Purchase key (made the first time): key ID, issuer ID, bundle ID, .p8 path.")

    @Option(
      help: ArgumentHelp(
        "Also copy SubscriptionKey_KEYID.p8 into this folder (never over a different file).", valueName: "folder"))
    var out: String?

    @Flag(help: "Print JSON: {keyID, issuerID, bundleID, keyFile, copiedTo (with --out)}.")
    var json = false

    @OptionGroup var options: ShopOptions

    func run() throws {
      let catalog = try options.loadCatalog()
      let folder = options.dataFolder
      if let out {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out, isDirectory: &isFolder), isFolder.boolValue else {
          throw Failure(
            "--out \(TerminalText.escaped(out)): expected an existing folder; nothing was written", .invalidArgument)
        }
      }
      let (key, path, _) = try AppStoreServer.key(of: folder)
      var copied: String?
      if let out {
        let target = (out as NSString).appendingPathComponent(key.fileName)
        try StoreCertificate.checkPlace(target, example: key.fileName, dataFolder: folder)
        let bytes = Data(key.pem.utf8)
        if let existing = FileManager.default.contents(atPath: target) {
          guard existing == bytes else {
            throw Failure(
              "--out \(TerminalText.escaped(target)): a different file is already there; nothing was written",
              .invalidArgument)
          }
        } else {
          try StoreCertificate.save(bytes, to: target)
          chmod(target, 0o600)
        }
        copied = target
      }
      if json {
        try printJSON(
          KeyReport(
            keyID: key.keyID, issuerID: key.issuerID, bundleID: catalog.bundleIdentifier, keyFile: path,
            copiedTo: copied))
        return
      }
      say("key ID     \(key.keyID)")
      say("issuer ID  \(key.issuerID)")
      say("bundle ID  \(TerminalText.escaped(catalog.bundleIdentifier))")
      say("key file   \(TerminalText.escaped(path))")
      if let copied { say("copied to  \(TerminalText.escaped(copied))") }
    }
  }

  struct KeyReport: Encodable {
    var keyID: String
    var issuerID: String
    var bundleID: String
    var keyFile: String
    var copiedTo: String?
  }
}
