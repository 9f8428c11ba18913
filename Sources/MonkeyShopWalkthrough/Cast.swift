import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

/// A recording of a walkthrough's screen (docs/walkthroughs.md), as `monkeyshop walkthrough --play` shows it:
/// the storefront with the narration band under it, in the walkthrough's virtual time, written
/// as an asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line,
/// then one `[time, "o", data]` line per frame, `data` being what a terminal is sent to turn the
/// previous frame into this one (`CastScreen`).
///
/// The same walkthrough gives the same file byte for byte: times are virtual, and the header's
/// optional `timestamp` is the walkthrough's virtual clock start (`WalkthroughSession.epoch`), the
/// date the storefront shows.
public struct Cast: Sendable {
  /// One output event: what the terminal is sent, and when.
  public struct Event: Sendable, Equatable {
    /// Seconds since the recording began.
    public let time: TimeInterval
    public let output: String
  }

  public let size: ScreenSize
  /// The walkthrough's name, its control characters escaped as the transcript shows them.
  public let title: String
  /// Unix time the recording begins at.
  public let timestamp: Int
  public let events: [Event]

  /// The terminal type the output is written for: plain ANSI (cursor moves, erase, SGR), which
  /// every terminal asciinema plays in understands.
  public static let terminalType = "xterm-256color"

  /// Seconds from the first frame to the last.
  public var duration: TimeInterval { events.last?.time ?? 0 }

  /// The file: the header line, then an event per line.
  public var text: String {
    var lines = [Self.header(size: size, timestamp: timestamp, duration: duration, title: title)]
    for event in events { lines.append(Self.line(time: event.time, code: "o", data: event.output)) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The header line (without its newline): the size the recording starts at, when it began, its
  /// length when known, its title, and the terminal type its output is written for.
  static func header(size: ScreenSize, timestamp: Int, duration: TimeInterval?, title: String) -> String {
    "{\"version\": 2, \"width\": \(size.width), \"height\": \(size.height), \"timestamp\": \(timestamp), "
      + (duration.map { "\"duration\": \(seconds($0)), " } ?? "") + "\"title\": \(TerminalText.jsonString(title)), "
      + "\"env\": {\"TERM\": \(TerminalText.jsonString(terminalType))}}"
  }

  /// One event line (without its newline): `[time, code, data]`, `o` for output and `r` for a
  /// new terminal size (`WIDTHxHEIGHT`).
  static func line(time: TimeInterval, code: String, data: String) -> String {
    "[\(seconds(time)), \"\(code)\", \(TerminalText.jsonString(data))]"
  }

  /// Microseconds, as asciinema writes times.
  static func seconds(_ time: TimeInterval) -> String { String(format: "%.6f", max(0, time)) }
}

extension Cast {
  /// Records a walkthrough played in the player (`WalkthroughPlayer`) on a clock of its own: each
  /// step comes `pause` seconds after the last one ended, as `--play --auto` brings them, and a
  /// wait lasts its virtual time, with the band's countdown, the spinner and the log as the
  /// audience of `--play` sees them. A frame is taken whenever the player asks to be woken up; one
  /// that shows nothing new is not recorded. The recording ends after the last step, or at the
  /// first that fails (the band says why), or at a setup the store refused.
  ///
  /// `frame` sees each recorded frame's time and screen, for tests that replay the output.
  public static func record(
    _ walkthrough: Walkthrough, catalog: Catalog, language: Language? = nil, shopLanguage: Language? = nil,
    size: ScreenSize, pause: TimeInterval, colours: Bool = true, frame: ((TimeInterval, TextGrid) -> Void)? = nil
  ) -> Cast {
    let start = WalkthroughSession.epoch
    let player = WalkthroughPlayer(
      walkthrough: walkthrough, catalog: catalog, language: language, shopLanguage: shopLanguage,
      autoAdvance: max(0, pause))
    var now = start
    var events: [Event] = []
    var shown: TextGrid?

    func take() {
      var grid = TextGrid(size: size)
      player.draw(on: &grid)
      guard shown?.cells != grid.cells else { return }
      // To the millisecond: the clock's dates are far from their reference date, and the
      // digits below a millisecond are rounding.
      let time = (now.timeIntervalSince(start) * 1000).rounded() / 1000
      events.append(Event(time: time, output: CastScreen.output(from: shown, to: grid, colours: colours)))
      frame?(time, grid)
      shown = grid
    }

    player.resized(size, now: now)
    player.start(now: now)
    take()
    // A deadline the player gives again without time moving would hold the clock still; after a
    // few, time moves on a millisecond.
    var stillTicks = 0
    while !player.isFinished, !player.isFreePlay, player.failure == nil, let deadline = player.nextDeadline {
      if deadline > now {
        now = deadline
        stillTicks = 0
      } else {
        stillTicks += 1
        if stillTicks > 8 {
          now = now.addingTimeInterval(0.001)
          stillTicks = 0
        }
      }
      player.tick(now: now)
      take()
    }
    if let last = events.popLast() {
      events.append(Event(time: last.time, output: last.output + CastScreen.closing(height: size.height)))
    }
    return Cast(
      size: size, title: TerminalText.escaped(walkthrough.name),
      timestamp: Int(start.timeIntervalSince1970), events: events)
  }
}

extension Cast {
  /// Makes `path` ready for a recording before anything runs (`walkthrough --cast`, the
  /// storefront's `--cast`), as `ReportFile.prepare` does for a report. A file already there is
  /// replaced only when it is empty or a recording monkeyshop made (`isMonkeyshopHeader`), so a
  /// mistyped path never costs a person a file of theirs, their own asciinema recordings
  /// included; and never while another monkeyshop is recording to it (`OutputFile.isBeingRecorded`).
  public static func prepare(
    _ path: String, example: String = "walkthrough.cast", dataFolder: DataFolder
  ) throws(ReportFile.PlaceError) {
    try OutputFile.prepare(path, example: example, dataFolder: dataFolder)
    let start = try OutputFile.existingStart(path, upTo: 65536)
    if OutputFile.isBeingRecorded(path) {
      throw ReportFile.PlaceError(
        path: path,
        problem: "another monkeyshop is recording to it; it is left as it is (expected another file name, "
          + "or to record there once that monkeyshop has quit)")
    }
    guard let start, !isMonkeyshopHeader(start) || !endsAsARecording(OutputFile.existingEnd(path, upTo: 65536))
    else { return }
    throw ReportFile.PlaceError(
      path: path,
      problem: "is not a monkeyshop recording; it is left as it is (expected a new file name, "
        + "or a recording monkeyshop made to replace)")
  }

  /// Whether a file's last line is a recording's: one event, `[time, "o", text]`, so a file that
  /// only begins with a recording's header (notes after it) is not taken for one.
  static func endsAsARecording(_ end: Data) -> Bool {
    let lines = end.split(separator: UInt8(ascii: "\n"))
    guard let last = lines.last,
      let event = try? JSONSerialization.jsonObject(with: Data(last)) as? [Any], event.count == 3
    else { return false }
    return event[0] is NSNumber && event[1] is String && event[2] is String
  }

  /// Whether a file starts with the header monkeyshop writes (`header`), exactly: the
  /// storefront's (`LiveCast`, titled "monkeyshop", no duration) or a walkthrough's (a duration,
  /// and the walkthrough's clock start as its timestamp). asciinema's own recordings carry the
  /// shell and other fields, or another version, and are not one.
  static func isMonkeyshopHeader(_ start: Data) -> Bool {
    let line = start.prefix { $0 != UInt8(ascii: "\n") }
    guard let header = try? JSONDecoder().decode(Header.self, from: line), header.version == 2 else { return false }
    let live = header.title == LiveCast.title && header.duration == nil
    let walkthrough =
      header.duration != nil && header.timestamp == Int(WalkthroughSession.epoch.timeIntervalSince1970)
    guard live || walkthrough else { return false }
    let written = Self.header(
      size: ScreenSize(width: header.width, height: header.height), timestamp: header.timestamp,
      duration: header.duration, title: header.title)
    return Data(written.utf8) == Data(line)
  }

  /// The fields of the header monkeyshop writes.
  private struct Header: Decodable {
    let version: Int
    let width: Int
    let height: Int
    let timestamp: Int
    let duration: TimeInterval?
    let title: String
  }
}
