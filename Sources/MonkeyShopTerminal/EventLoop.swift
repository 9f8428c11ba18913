import Foundation
import MonkeyShopApp

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a `TerminalApp` on one thread: draw, then sleep in poll(2) until a key, a change in the
/// app's folder, a signal, or the app's next deadline. With no deadline it sleeps with no timeout,
/// so an idle storefront uses no CPU; with the polling folder watch (macOS, or
/// `MONKEYSHOP_FOLDER_WATCH=poll`) it wakes four times a second to look at the folder.
public enum EventLoop {
  public enum Outcome: Hashable, Sendable {
    /// The app finished (q, Ctrl-C).
    case finished
    /// SIGTERM, SIGHUP or SIGINT ended the loop; restore the terminal and exit with `exitStatus`.
    case signalled(Int32)

    /// What the process should exit with: 0, or 128 + the signal number, as a shell reports it.
    public var exitStatus: Int32 {
      switch self {
      case .finished: 0
      case .signalled(let signo): 128 + signo
      }
    }
  }

  /// Calls `app.start(now:)`, then loops until `app.isFinished` or a termination signal. The terminal
  /// must be started; it is left started, so the caller stops it (and exits) afterwards.
  /// `environment`: the process's, read once by the caller (it chooses how the folder is watched).
  @discardableResult
  public static func run(
    app: some TerminalApp, terminal: Terminal, environment: [String: String], clock: () -> Date = Date.init
  ) -> Outcome {
    app.start(now: clock())
    perform(app.takeScreenRequests(), on: terminal)
    var size = terminal.size
    app.resized(size, now: clock())
    /// The app hears of every new size before the keys typed after it.
    func followSize() {
      guard terminal.size != size else { return }
      size = terminal.size
      app.resized(size, now: clock())
    }
    let folderWatch = FolderWatch(path: app.watchedFolder, environment: environment)
    var needsDraw = true
    while !app.isFinished {
      if needsDraw {
        terminal.draw { app.draw(on: &$0) }
        terminal.dumpFrame { app.draw(on: &$0) }
        needsDraw = false
      }
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      if let watched = folderWatch?.pollDescriptor {
        descriptors.append(pollfd(fd: watched, events: Int16(POLLIN), revents: 0))
      }
      var sleep = timeout(until: app.nextDeadline, now: clock())
      if let folderWatch { sleep = folderWatch.timeout(limiting: sleep) }
      // EINTR (a signal arrived) is fine: the signal pipe says which.
      _ = poll(&descriptors, nfds_t(descriptors.count), sleep)

      let signals = SignalPipe.drain()
      if let termination = signals.first(where: SignalPipe.isTermination) { return .signalled(termination) }
      if signals.contains(SIGTSTP) {
        // kill -TSTP: as Ctrl-Z, though only this process was asked to stop.
        terminal.suspend(stopping: .process)
      } else if signals.contains(SIGCONT) {
        terminal.takeBackAfterStop()
      }
      if !signals.isEmpty {
        // However many SIGWINCHes came in, the tty's size now is the one to follow.
        terminal.followResize()
        followSize()
        needsDraw = true
      }
      // Then everything typed while asleep, in order. Reading never blocks (nodelay).
      while !app.isFinished, let input = terminal.readInput() {
        followSize()
        if case .key(let key) = input {
          app.handle(key, now: clock())
          // At once: keys typed after Ctrl-Z are not for the storefront.
          perform(app.takeScreenRequests(), on: terminal)
        }
        needsDraw = true
      }
      // The terminal went away without a SIGHUP: poll would report it forever, so leave as for one.
      if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .signalled(SIGHUP) }
      if let folderWatch, !app.isFinished,
        folderWatch.changed(descriptorReady: descriptors.count > 2 && descriptors[2].revents != 0)
      {
        app.folderChanged(now: clock())
        perform(app.takeScreenRequests(), on: terminal)
        needsDraw = true
      }
      let now = clock()
      if !app.isFinished, let deadline = app.nextDeadline, now >= deadline {
        app.tick(now: now)
        perform(app.takeScreenRequests(), on: terminal)
        needsDraw = true
      }
    }
    return .finished
  }

  /// What the app asked of the terminal, in order. Either way the next frame repaints every cell.
  private static func perform(_ requests: [ScreenRequest], on terminal: Terminal) {
    for request in requests {
      switch request {
      case .redraw: terminal.repaintEverything()
      case .suspend: terminal.suspend(stopping: .job)
      }
    }
  }

  /// Milliseconds until `deadline`, rounded up so the loop does not wake just before it; -1 (wait
  /// for input forever) when nothing is pending.
  static func timeout(until deadline: Date?, now: Date) -> Int32 {
    guard let deadline else { return -1 }
    let milliseconds = (deadline.timeIntervalSince(now) * 1000).rounded(.up)
    guard milliseconds > 0 else { return 0 }
    return Int32(min(milliseconds, Double(Int32.max)))
  }
}
