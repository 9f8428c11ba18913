// The floor the server's throughput is measured against (Benchmarks/server_cost.py): one
// Hummingbird route, `GET /inApps/v1/transactions/:transactionId`, answering a fixed JSON body of
// BYTES bytes, in the same build as `monkeyshop server`, with no token check, no folder and no
// database. Usage: minimal-hummingbird PORT BYTES; prints `listening on http://127.0.0.1:PORT`.
import Foundation
import Hummingbird

let arguments = CommandLine.arguments.dropFirst()
guard let port = arguments.first.flatMap({ Int($0) }), let size = arguments.dropFirst().first.flatMap({ Int($0) })
else {
  FileHandle.standardError.write(Data("usage: minimal-hummingbird PORT BYTES\n".utf8))
  exit(64)
}
let prefix = #"{"signedTransactionInfo":""#
let body = prefix + String(repeating: "a", count: max(0, size - prefix.count - 2)) + #""}"#
let router = Router()
router.get("inApps/v1/transactions/:transactionId") { _, _ in
  Response(
    status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
}
let app = Application(
  router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
  onServerRunning: { channel in
    let line = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  })
try await app.runService()
