import Foundation

/// What the terminal's event loop drives: the storefront, or a walkthrough played live. The loop
/// sleeps until a key, a change in the data folder, a signal, or `nextDeadline`.
public protocol TerminalApp: AnyObject {
  /// Called once, before the first frame.
  func start(now: Date)
  func handle(_ key: Key, now: Date)
  /// Time has reached `nextDeadline` (or passed it while the loop slept).
  func tick(now: Date)
  /// The screen is this size: before the first frame and after every resize.
  func resized(_ size: ScreenSize, now: Date)
  /// Something in `watchedFolder` changed: another monkeyshop wrote the wallet or the store.
  func folderChanged(now: Date)
  /// Nil: nothing is pending and the loop may sleep until input.
  var nextDeadline: Date? { get }
  var isFinished: Bool { get }
  /// The folder whose files the app follows, if any.
  var watchedFolder: String? { get }
  /// Draws the whole screen; the canvas starts blank.
  func draw(on canvas: inout some Canvas)
  /// What the app asked of the terminal since the last call (a repaint, a suspension), oldest
  /// first; asking again returns nothing until the app asks for more.
  func takeScreenRequests() -> [ScreenRequest]
}

extension ShopRuntime: TerminalApp {}
