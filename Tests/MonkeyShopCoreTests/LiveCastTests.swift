import Foundation
import MonkeyShopApp
import MonkeyShopDomain
import MonkeyShopStorage
import MonkeyShopWalkthrough
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `monkeyshop --cast FILE` (`LiveCast`): the storefront's frames as they come, in the file from the
/// first one, each appended as it is drawn.
@Suite("Live recordings of the storefront", .tags(.walkthroughs))
struct LiveCastTests {
  private func grid(_ size: ScreenSize, _ text: String) -> TextGrid {
    var grid = TextGrid(size: size)
    grid.put(text, x: 0, y: 0, style: .plain)
    return grid
  }

  /// Each line of the file as JSON: the header, then `[time, code, data]` events.
  private func lines(_ path: String) throws -> [Any] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasSuffix("\n"))
    return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
  }

  @Test func framesAreAppendedAsTheyComeAndAResizeIsAnREvent() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).cast").path
    defer { unlink(path) }
    let cast = LiveCast(path: path)
    #expect(!FileManager.default.fileExists(atPath: path), "nothing before the first frame")
    cast.record(grid(.minimum, "first"))
    // In place with the first frame, before the session ends: what a kill would leave.
    var written = try lines(path)
    #expect(written.count == 2)
    let header = try #require(written.first as? [String: Any])
    #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
    #expect(header["duration"] == nil, "not known while it is being recorded")
    cast.record(grid(.minimum, "first"))
    #expect(try lines(path).count == 2, "a frame that shows nothing new is not recorded")
    cast.record(grid(.minimum, "second"))
    cast.record(grid(ScreenSize(width: 100, height: 30), "second"))
    cast.finish()
    written = try lines(path)
    let events = written.dropFirst().compactMap { $0 as? [Any] }
    #expect(events.map { $0[1] as? String } == ["o", "o", "r", "o", "o"])
    #expect(events[2][2] as? String == "100x30")
    #expect((events[3][2] as? String)?.contains("\u{1B}[2J") == true, "the new size is drawn whole")
    #expect((events[4][2] as? String)?.hasSuffix("\u{1B}[30;1H\u{1B}[?25h") == true, "the cursor is shown at the end")
    let times = events.compactMap { ($0[0] as? NSNumber)?.doubleValue }
    #expect(times.count == 5 && times.first == 0 && times == times.sorted(), "\(times)")
    #expect(cast.lossDescription == nil)
  }

  /// A recording that cannot be written says how many frames were lost, naming the file.
  @Test func framesThatCannotBeWrittenAreCounted() {
    let path = "/no-such-folder-\(UUID().uuidString)/session.cast"
    let cast = LiveCast(path: path)
    cast.record(grid(.minimum, "first"))
    cast.record(grid(.minimum, "second"))
    cast.finish()
    let loss = cast.lossDescription ?? ""
    #expect(loss.hasPrefix("--cast \(path): 2 frames could not be written ("), "\(loss)")
    #expect(loss.hasSuffix("); the recording is incomplete"), "\(loss)")
  }

  /// A disk that fills up and frees again: `space` bytes more can be written (none: no limit).
  private final class Disk {
    var space: Int?

    func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
      guard let space else { return systemWrite(descriptor, buffer, count) }
      guard space > 0 else {
        errno = ENOSPC
        return -1
      }
      let written = systemWrite(descriptor, buffer, min(count, space))
      self.space = space - max(0, written)
      return written
    }

    private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
      #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
      #else
        Darwin.write(descriptor, buffer, count)
      #endif
    }
  }

  /// A frame the disk has room for only part of is cut off again and ends the recording: frames
  /// drawn after space comes back are not glued onto a torn line, and the file plays up to the
  /// last frame written whole.
  @Test func aFullDiskEndsTheRecordingAtTheLastWholeFrame() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString).cast").path
    defer { unlink(path) }
    let disk = Disk()
    let cast = LiveCast(path: path, write: disk.write)
    cast.record(grid(.minimum, "first"))
    cast.record(grid(.minimum, "second"))
    let whole = try String(contentsOfFile: path, encoding: .utf8)
    disk.space = 10
    cast.record(grid(.minimum, "third"))
    disk.space = nil
    cast.record(grid(.minimum, "fourth"))
    cast.finish()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == whole, "the file ends at the second frame")
    let events = try lines(path).dropFirst().compactMap { $0 as? [Any] }
    #expect(events.count == 2)
    let loss = cast.lossDescription ?? ""
    #expect(loss.hasPrefix("--cast \(path): 2 frames could not be written ("), "\(loss)")
    #expect(loss.contains(String(cString: strerror(ENOSPC))), "\(loss)")
  }

  /// While a storefront records to a file, another monkeyshop does not: `--cast` of the same file
  /// is refused before its screen opens, and a recorder that got past that before the first
  /// frame was drawn writes nothing there. Once the first has quit, the file may be recorded again.
  @Test func aFileBeingRecordedIsLeftToItsRecorder() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("same-\(UUID().uuidString).cast").path
    defer { unlink(path) }
    let first = LiveCast(path: path)
    first.record(grid(.minimum, "first"))
    #expect {
      try Cast.prepare(path, dataFolder: CastPlaceTests.elsewhere)
    } throws: { error in
      "\(error)".contains("\(path): another monkeyshop is recording to it; it is left as it is")
    }
    let second = LiveCast(path: path)
    second.record(grid(.minimum, "second"))
    second.finish()
    #expect(second.lossDescription?.contains("another monkeyshop is recording to it") == true)
    first.record(grid(.minimum, "third"))
    first.finish()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("third") && !text.contains("second"), "\(text)")
    #expect(try lines(path).count == 4, "the header, two frames and the last event")
    try Cast.prepare(path, dataFolder: CastPlaceTests.elsewhere)
  }
}
