import Foundation
import MonkeyShopStorage

/// Where a report (`--junit PATH`) goes, made ready before any walkthrough runs, by the rule every
/// file monkeyshop is told to write follows (`OutputFile.prepare`): its missing folders are
/// created, and a place it cannot be written to is refused then, not after the run.
public enum ReportFile {
  public typealias PlaceError = OutputFile.PlaceError

  /// Creates the folders `path` needs and checks that a file can be written there. `example` is a
  /// file name the messages suggest.
  public static func prepare(
    _ path: String, example: String = "build/walkthroughs.xml", dataFolder: DataFolder
  ) throws(PlaceError) {
    try OutputFile.prepare(path, example: example, dataFolder: dataFolder)
  }
}
