import ArgumentParser
import MonkeyShopApp
import MonkeyShopStorage
import MonkeyShopTerminal
import MonkeyShopWalkthrough

/// Runs an app (the storefront, a walkthrough played live) in the terminal until it finishes, and
/// exits as the shell expects after a signal. With `cast`, every frame is recorded too, and the
/// recording is finished however the loop ended (a quit, SIGTERM, SIGHUP, SIGINT).
func runInTerminal(_ app: some TerminalApp, dataFolder: DataFolder, cast: LiveCast? = nil) throws {
  let terminal = Terminal(dataFolder: dataFolder)
  do {
    try terminal.start()
  } catch let failure {
    throw Failure(failure.description, failure.errorID)
  }
  if let cast {
    cast.colours = terminal.showsColours
    terminal.onFrame = cast.record
  }
  let outcome = EventLoop.run(app: app, terminal: terminal, environment: ProcessEnvironment.values)
  terminal.stop()
  cast?.finish()
  if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
  if let loss = cast?.lossDescription { throw Failure(loss, .cannotWriteOutput) }
}
