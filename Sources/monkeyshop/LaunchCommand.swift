import ArgumentParser
import Foundation
import MonkeyShopCore

struct LaunchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "launch",
    abstract: "Launch the app without a screen: take delivery of what is waiting, print it, exit.",
    discussion: """
      The app adds its transaction observer, as at every launch, and the queue delivers every \
      unfinished transaction again: a purchase paid for but not finished (a crash, a kill), an Ask \
      to Buy approved or an interrupted purchase resolved from another terminal. Each is credited \
      once and finished. Exit status: 0 delivered or nothing waiting, 1 a delivery failed, 65 \
      unreadable data.
      """)

  @OptionGroup var options: ShopOptions

  func run() throws {
    let catalog = try options.loadCatalog()
    let folder = options.dataFolder
    try options.checkDataFiles(folder)
    let runtime = Headless.launch(catalog: catalog, folder: folder)
    let model = runtime.model
    if model.lastFailure != nil { throw Failure.of(model, "a delivery failed") }
    say("balance \(model.balance) monkey credits; \(model.unfinishedCount) transaction(s) still unfinished")
  }
}
