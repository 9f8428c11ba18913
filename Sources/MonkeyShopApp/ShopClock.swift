import Foundation

extension ShopRuntime {
  /// The one driver of time: ticks the app at every deadline it asks for, in order, until
  /// `target` (model time), or for as long as `keepGoing` holds when there is no target.
  ///
  /// `wait` is how time reaches a deadline and returns the model time reached: on virtual time
  /// (walkthroughs, tests) it returns the deadline at once, so minutes of store latency cost
  /// microseconds; on the wall clock (headless commands) it sleeps.
  public func run(
    until target: Int? = nil, while keepGoing: (ShopModel) -> Bool = { _ in true },
    wait: (Int) -> Int = { $0 }
  ) {
    var lastTick: Int?
    while !isFinished, keepGoing(model), let deadline = model.nextDeadline, target.map({ deadline <= $0 }) ?? true {
      // A tick at or after a deadline answers it; a model that asks again for a moment already
      // ticked would spin here forever, so time stops rather than the process hanging.
      if let lastTick, deadline <= lastTick { break }
      let reached = max(wait(deadline), model.now)
      send(.tick(at: reached))
      lastTick = reached
    }
    if let target, !isFinished, model.now < target { send(.tick(at: target)) }
  }

  /// Runs on the wall clock, sleeping from deadline to deadline, while `keepGoing` holds.
  public func runOnWallClock(while keepGoing: (ShopModel) -> Bool) {
    run(while: keepGoing) { deadline in
      let wait = model.date(at: deadline).timeIntervalSinceNow
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      return model.time(at: Date())
    }
  }
}
