import MonkeyShopDomain
import Testing

@Suite("Paths: the folder a path is in", .tags(.pure))
struct PathTextTests {
  @Test(
    "one-character names, bare names, absolute paths and trailing slashes",
    arguments: [
      ("d", "."), ("data", "."), ("d/", "."), ("a/b", "a"), ("a/b/", "a"), ("/d", "/"), ("/", "/"),
      ("/tmp/x/store.json", "/tmp/x"), ("a//b", "a"), ("./d", "."),
    ])
  func folder(path: String, folder: String) {
    #expect(PathText.folder(of: path) == folder)
  }
}
