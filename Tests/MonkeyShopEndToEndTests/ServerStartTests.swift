import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `monkeyshop server` where it cannot listen: the message says why in the shop's words, names the
/// option that chooses another place, and the server never says it is listening.
@Suite("The server where it cannot listen", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct ServerStartTests {
  /// A loopback socket listening on a port the system picked; the caller closes it.
  static func listeningSocket() throws -> (socket: Int32, port: Int) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = Loopback.address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(socket, $0, length) == 0 && Glibc.listen(socket, 1) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard listening else {
      close(socket)
      throw E2EFailure("cannot listen on loopback: errno \(errno)")
    }
    return (socket, Int(UInt16(bigEndian: address.sin_port)))
  }

  @Test("a port another program listens on: said in words, with --port to pick another, exit 69")
  func portInUse() async throws {
    let folder = try ShopFolder("server-port-in-use")
    let (socket, port) = try Self.listeningSocket()
    defer { close(socket) }
    let result = try await monkeyshop("server", "--port", "\(port)", in: folder, timeout: .seconds(30))
    #expect(result.exitStatus == 69, "\(result)")
    #expect(
      result.stderr.contains(
        "port \(port) on 127.0.0.1 is in use (another program is listening there); pick another with --port, or --port 0 for a free one"
      ), "\(result)")
    #expect(!result.stderr.contains("errno") && !result.stderr.contains("bind("), "no system call's text: \(result)")
    #expect(!result.stdout.contains("listening on") && !result.stderr.contains("listening on"), "\(result)")
  }

  /// The port of another monkeyshop server of the same folder, which sends its notifications: the
  /// second server says only that the port is in use, nothing of the work a running one does.
  @Test("the port of another monkeyshop server: only that the port is in use, nothing a running server says")
  func portOfAnotherServer() async throws {
    let folder = try ShopFolder("server-port-of-another")
    try expectSuccess(await monkeyshop("server", "key", in: folder))
    let first = try Child(["server", "--port", "0"], in: folder)
    defer { first.kill() }
    let deadline = ContinuousClock.now + .seconds(60)
    var port: String?
    while port == nil, ContinuousClock.now < deadline {
      let text = (try? String(contentsOfFile: first.stdoutPath, encoding: .utf8)) ?? ""
      port = text.split(separator: "\n").first { $0.hasPrefix("listening on http://127.0.0.1:") }
        .map { String($0.dropFirst("listening on http://127.0.0.1:".count)) }
      if port == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    let busy = try #require(port, "the first server did not say where it listens")
    // Its sender has claimed the folder's notifications by now.
    try await Task.sleep(for: .milliseconds(500))
    // The second's own output files, in a folder of their own; the first's data folder.
    let second = try ShopFolder("server-port-of-another-second")
    let result = try await monkeyshop(
      "server", "--port", busy, "--data-dir", folder.data.path, in: second, timeout: .seconds(30))
    #expect(result.exitStatus == 69, "\(result)")
    #expect(result.stderr.contains("port \(busy) on 127.0.0.1 is in use"), "\(result)")
    #expect(result.stdout.isEmpty, "nothing that looks like a running server: \(result)")
    #expect(!result.stderr.contains("notifications"), "\(result)")
    first.kill(SIGTERM)
    #expect(try await first.wait(timeout: .seconds(15)).exitStatus == 0)
  }

  /// 192.0.2.1 is reserved for documentation (RFC 5737): no machine of a test has it.
  @Test("a host that is not an address of this machine: said in words, with --host, exit 69")
  func hostNotHere() async throws {
    let folder = try ShopFolder("server-host-not-here")
    let result = try await monkeyshop(
      "server", "--host", "192.0.2.1", "--port", "0", in: folder, timeout: .seconds(30))
    #expect(result.exitStatus == 69, "\(result)")
    #expect(
      result.stderr.contains(
        "192.0.2.1 is not an address of this machine; give one of its own with --host, such as 127.0.0.1"),
      "\(result)")
    #expect(!result.stderr.contains("errno"), "no system call's text: \(result)")
    #expect(!result.stdout.contains("listening on") && !result.stderr.contains("listening on"), "\(result)")
  }
}
