import NIOCore
import NIOHTTPTypes

/// Each request must arrive whole within `limit`, counted from when the connection opens or its
/// last response was sent: a client that sends its request a byte at a time (slowloris), or opens a
/// connection and sends nothing, is disconnected then, as it would be by an idle timeout that each
/// byte cannot reset. The time a request takes to answer is not counted (it may wait for the
/// folder's lock). Other connections are served meanwhile: each is its own channel. Apple does not
/// say how long it waits for a request (docs/server.md).
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let limit: TimeAmount
  private var deadline: Scheduled<Void>?

  init(limit: TimeAmount) {
    self.limit = limit
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { arm(context) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    disarm()
  }

  func channelActive(context: ChannelHandlerContext) {
    arm(context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    disarm()
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .end = unwrapInboundIn(data) { disarm() }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { arm(context) }
    context.write(data, promise: promise)
  }

  private func arm(_ context: ChannelHandlerContext) {
    deadline?.cancel()
    let channel = context.channel
    deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
  }

  private func disarm() {
    deadline?.cancel()
    deadline = nil
  }
}
