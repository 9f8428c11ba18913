import Testing

/// The tiers of the test suite: one file, which every test target compiles (theirs link to it).
/// Every suite carries the tag of its tier; `Tests/run` runs the tiers one after another, fastest
/// first, and prints each one's time (docs/testing.md). A test with several tags runs in the last
/// of them in this order.
extension Tag {
  /// Values in, values out: the model, the store's rules, files in a temporary folder. No terminal.
  @Tag static var pure: Self
  /// What a person sees: screens drawn into the in-memory grid (golden screens), or by ncurses.
  @Tag static var screen: Self
  /// Walkthroughs: the bundled library, the format, the player, recordings.
  @Tag static var walkthroughs: Self
  /// The built binary in real processes: headless commands, the storefront in tmux.
  @Tag static var endToEnd: Self
  /// Needs Python: Apple's App Store Server Library, asciinema, plistlib (`Tests/run` installs them).
  @Tag static var needsPython: Self
  /// The crash-point sweep: the binary killed at each of its system calls with strace, the slowest.
  @Tag static var crashSweep: Self
}
