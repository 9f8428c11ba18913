import ArgumentParser
import MonkeyShopApp
import MonkeyShopStorage
import MonkeyShopTerminal

/// Runs an app (the storefront, a walkthrough played live) in the terminal until it finishes, and
/// exits as the shell expects after a signal.
func runInTerminal(_ app: some TerminalApp, dataFolder: DataFolder) throws {
  let terminal = Terminal(dataFolder: dataFolder)
  do {
    try terminal.start()
  } catch let failure {
    throw Failure(failure.description, failure.errorID)
  }
  let outcome = EventLoop.run(app: app, terminal: terminal)
  terminal.stop()
  if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
}
