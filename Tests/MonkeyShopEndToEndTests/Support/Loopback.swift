import Foundation

/// TCP on the loopback interface, for the tests that play a client or need a port nothing uses.
enum Loopback {
  static func address(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  /// A socket connected to `port`; the caller closes it.
  static func connect(port: UInt16) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw E2EFailure("cannot connect to port \(port)")
    }
    return socket
  }

  /// A port nothing listens on: one the system hands out, let go again.
  static func unusedPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    guard named else { throw E2EFailure("no free loopback port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
