import Foundation
import Testing

@testable import MonkeyShopApp
@testable import MonkeyShopDomain

/// The storefront's log shows the App Store Server's side as `monkeyshop server` records it in the
/// data folder: each attempt at sending a notification, and each Send Consumption Information
/// received — once each, oldest first, and nothing from before the app launched.
@Suite(.tags(.pure)) struct ServerActivityLogTests {
  static let url = "http://127.0.0.1:9000/"
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  /// A store whose queue holds a CONSUMPTION_REQUEST and a REFUND about #4, waiting to be sent.
  static func waiting() -> StoreState {
    var store = StoreState()
    store.notifications.url = url
    for type in [NotificationType.consumptionRequest, .refund] {
      let made = store.notifications.record(
        type, transactionID: "4", at: start, environment: .sandbox, bundleId: "com.example.shop")
      store.notifications.pending.append(PendingNotification(made))
    }
    store.notifications.outgoing = []
    return store
  }

  static func attempt(_ seconds: Double, _ result: SendAttemptResult, _ status: Int?) -> SendAttempt {
    SendAttempt(date: start.addingTimeInterval(seconds), result: result, url: url, httpStatus: status)
  }

  /// The store as the server's storage commits it: the notifications that ended move to the
  /// attempts file (here: returned), whose length the store counts.
  static func commit(_ store: inout StoreState) -> [FinishedNotification] {
    let ended = store.notifications.finishing
    store.notifications.attemptsLength += ended.count * 100
    store.notifications.finishing = []
    return ended
  }

  /// The app follows the folder after another process changed it; what it asks to read of the
  /// attempts file is answered with `ended`.
  static func follow(_ model: inout ShopModel, _ store: StoreState, ended: [FinishedNotification], at time: Int) {
    let effects = model.update(.dataFolderRead(store, Wallet(), at: time))
    let reads = effects.filter { if case .readEndedNotifications = $0 { true } else { false } }
    #expect(reads.count == (ended.isEmpty ? 0 : 1))
    if !reads.isEmpty { _ = model.update(.endedNotificationsRead(ended)) }
  }

  static func lines(_ model: ShopModel, after count: Int) -> [String] {
    model.log.dropFirst(count).map { $0.text(model.language) }
  }

  @Test func eachAttemptAndEachConsumptionReportIsLoggedOnceInTheOrderTheyHappened() {
    var store = Self.waiting()
    var model = ShopModelUpdateTests.shop(store)
    let before = model.log.count
    // The server fails the first send of the request, then delivers both; its folder is read once.
    _ = store.notifications.recordAttempt(Self.attempt(1, .unsuccessfulHTTPResponseCode, 500), number: 1, retry: .fast)
    _ = store.notifications.recordAttempt(Self.attempt(2, .success, 200), number: 2, retry: .fast)
    _ = store.notifications.recordAttempt(Self.attempt(3, .success, 200), number: 1, retry: .fast)
    let ended = Self.commit(&store)
    Self.follow(&model, store, ended: ended, at: 600)
    #expect(
      Self.lines(model, after: before) == [
        "App Store Server Notification CONSUMPTION_REQUEST #4 · 500 UNSUCCESSFUL_HTTP_RESPONSE_CODE · attempt 1 → \(Self.url)",
        "App Store Server Notification REFUND #4 · 200 · attempt 1 → \(Self.url)",
        "App Store Server Notification CONSUMPTION_REQUEST #4 · 200 · attempt 2 → \(Self.url)",
      ])
    // Read again with nothing new: nothing more.
    let logged = model.log.count
    Self.follow(&model, store, ended: [], at: 700)
    #expect(model.log.count == logged)
    // The developer's server answers the request with consumption information.
    store.notifications.refundRequests = [RefundRequest(transactionID: "4", date: Self.start, reason: .other)]
    store.notifications.recordConsumption(
      ConsumptionInformation(
        customerConsented: true, deliveryStatus: "DELIVERED", sampleContentProvided: false,
        receivedDate: Self.start.addingTimeInterval(60)),
      for: "4")
    Self.follow(&model, store, ended: [], at: 800)
    #expect(Self.lines(model, after: logged) == ["Send Consumption Information #4 received"])
    #expect(model.log.last?.event.name == "consumptionReceived")
    #expect(model.log.last?.event.paymentID == "4")
  }

  @Test func whatTheServerDidBeforeTheLaunchIsNotNewsAndAnAttemptWithoutAnAnswerSaysWhy() {
    var store = Self.waiting()
    _ = store.notifications.recordAttempt(Self.attempt(1, .success, 200), number: 1, retry: .apple)
    _ = Self.commit(&store)
    var model = ShopModelUpdateTests.shop(store)
    #expect(!model.log.contains { $0.event.name == "notificationSent" })
    let before = model.log.count
    _ = store.notifications.recordAttempt(Self.attempt(31, .timedOut, nil), number: 2, retry: .apple)
    // A change the app itself made reads the server's attempts too.
    _ = model.update(.storeChanged(store))
    #expect(
      Self.lines(model, after: before) == [
        "App Store Server Notification REFUND #4 · TIMED_OUT · attempt 1 → \(Self.url)"
      ])
    Self.follow(&model, store, ended: [], at: 900)
    #expect(model.log.count == before + 1)
  }

  @Test func japanese() {
    var store = Self.waiting()
    var model = ShopModelUpdateTests.shop(store)
    let before = model.log.count
    _ = store.notifications.recordAttempt(Self.attempt(1, .success, 200), number: 2, retry: .fast)
    let ended = Self.commit(&store)
    Self.follow(&model, store, ended: ended, at: 600)
    #expect(
      model.log.dropFirst(before).map { $0.text(.ja) } == [
        "App Store Server Notification REFUND #4 · 200 · 1 回目の送信 → \(Self.url)"
      ])
  }
}
