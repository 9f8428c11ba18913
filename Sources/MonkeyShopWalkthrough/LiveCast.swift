import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage

/// `monkeyshop --cast FILE`: the storefront's session recorded as it happens, as an asciicast v2
/// file (https://docs.asciinema.org/manual/asciicast/v2/) that `asciinema play` plays with the
/// session's real timing. Each frame the storefront draws is also drawn on the in-memory grid
/// (`TextGrid`, what the golden screens are made of), and what a terminal is sent to turn the frame
/// before into it (`CastScreen`, as for a walkthrough's recording) is one `o` event, timed from the
/// first frame on a monotonic clock. A frame that shows nothing new is not recorded.
///
/// The header carries the terminal's size at the first frame. A new size is an `r` event
/// (`WIDTHxHEIGHT`, as asciinema 2.x writes one when it records a resize), then the frame drawn
/// whole at that size: asciinema 2.x's `play` and `cat` pass `r` events over and show the frames,
/// and a player that follows them (asciinema-player 3.6 and later) resizes its screen too.
///
/// The file is in place from the first frame (header and frame written beside it, then moved over
/// FILE, `OutputFile.startAppending`), and each frame is appended whole, so a kill -9 or a crash
/// leaves a recording that plays up to the last frame drawn. A frame that cannot be written whole
/// (a full disk) is cut off again and ends the recording there: frames after it are counted, not
/// written, so the file never holds a torn line and plays up to the failure. While it records,
/// the file is locked, and another monkeyshop refuses to record to it (`Cast.prepare`). When the
/// storefront quits, a last event shows the cursor again, as the storefront leaves the terminal.
public final class LiveCast {
  public let path: String
  /// Whether frames carry the palette's colours; false in monochrome, as the terminal showed them.
  public var colours = true

  private let clock = ContinuousClock()
  private var began: ContinuousClock.Instant?
  private var file: OutputFile.Growing?
  private var shown: TextGrid?
  /// The time of the last event written: times never go back.
  private var lastTime: TimeInterval = 0
  /// Frames that could not be written (a full disk), and why the first could not.
  public private(set) var lost = 0
  private var firstLoss: String?
  private let write: OutputFile.SystemWrite?

  /// What the header names the recording.
  static let title = "monkeyshop"

  /// A recording to `path`, which `Cast.prepare` has made ready; nothing is written before the
  /// first frame. `write` stands for write(2), for tests that play a full disk.
  public init(path: String, write: OutputFile.SystemWrite? = nil) {
    self.path = path
    self.write = write
  }

  deinit { file?.close() }

  /// Records a frame as the screen shows it now.
  public func record(_ grid: TextGrid) {
    guard shown?.size != grid.size || shown?.cells != grid.cells else { return }
    let now = clock.now
    guard let began else {
      began = now
      start(with: grid)
      return
    }
    let time = max(lastTime, seconds(began.duration(to: now)))
    var lines: [String] = []
    if let shown, shown.size != grid.size {
      lines.append(Cast.line(time: time, code: "r", data: "\(grid.size.width)x\(grid.size.height)"))
    }
    let output = CastScreen.output(from: shown, to: grid, colours: colours)
    lines.append(Cast.line(time: time, code: "o", data: output))
    shown = grid
    lastTime = time
    append(lines)
  }

  /// The session ended: the cursor is shown again on the bottom row, and the file is closed.
  public func finish() {
    guard let began, let shown, file != nil else { return }
    let time = max(lastTime, seconds(began.duration(to: clock.now)))
    append([Cast.line(time: time, code: "o", data: CastScreen.closing(height: shown.size.height))])
    file?.close()
    file = nil
  }

  /// Why the recording is incomplete, naming the file; nil when every frame was written.
  public var lossDescription: String? {
    guard lost > 0 else { return nil }
    return "--cast \(TerminalText.escaped(path)): \(counted(lost, "frame")) could not be written "
      + "(\(firstLoss ?? "")); the recording is incomplete"
  }

  private func start(with grid: TextGrid) {
    shown = grid
    let header = Cast.header(
      size: grid.size, timestamp: Int(Date().timeIntervalSince1970), duration: nil, title: Self.title)
    let first = Cast.line(time: 0, code: "o", data: CastScreen.output(from: nil, to: grid, colours: colours))
    do {
      file = try OutputFile.startAppending(Data((header + "\n" + first + "\n").utf8), to: path, write: write)
    } catch {
      noteLoss("\(error)")
    }
  }

  private func append(_ lines: [String]) {
    guard let file else { return noteLoss(firstLoss == nil ? "the file was never made" : nil) }
    do {
      try file.append(Data(lines.map { $0 + "\n" }.joined().utf8))
    } catch {
      // The recording ends at the last frame written whole.
      noteLoss("\(error)")
      file.close()
      self.file = nil
    }
  }

  private func noteLoss(_ reason: String?) {
    lost += 1
    if firstLoss == nil, let reason { firstLoss = reason }
  }

  private func seconds(_ duration: Duration) -> TimeInterval {
    let (whole, fraction) = duration.components
    return TimeInterval(whole) + TimeInterval(fraction) / 1e18
  }
}
