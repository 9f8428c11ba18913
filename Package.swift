// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "monkeyshop",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "monkeyshop", targets: ["monkeyshop"]),
    .executable(name: "monkeyshop-benchmarks", targets: ["MonkeyShopBenchmarks"]),
    .executable(name: "minimal-ncurses", targets: ["MinimalNCurses"]),
    .executable(name: "minimal-ncurses-foundation", targets: ["MinimalNCursesFoundation"]),
    .executable(name: "minimal-hummingbird", targets: ["MinimalHummingbird"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CNCurses",
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
    ),
    // The layers, each a target, so the compiler keeps every arrow pointing down:
    // Domain ← Storage ← App ← Walkthrough ← monkeyshop; Signing and Terminal beside them.
    // Pure values: the catalog, the App Store's rules and transactions, the wallet's contents,
    // errors and their IDs, dates, languages, escaped text.
    .target(name: "MonkeyShopDomain"),
    // The data folder: locks, one atomic file writer, the store's and the wallet's files, and the
    // App Store's record of transactions in SQLite (GRDB).
    .target(
      name: "MonkeyShopStorage",
      dependencies: ["MonkeyShopDomain", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    // The storefront app: model, messages, update, effects, runtime, key map, view, text.
    .target(name: "MonkeyShopApp", dependencies: ["MonkeyShopDomain", "MonkeyShopStorage"]),
    // Walkthroughs: the format, the runner, the player, JUnit and asciicast output.
    .target(
      name: "MonkeyShopWalkthrough",
      dependencies: [
        "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp", .product(name: "Yams", package: "Yams"),
      ]
    ),
    // Signed transactions: the certificate chain and the JWS. The crypto stays out of the domain,
    // which builds the payload the signature covers.
    .target(
      name: "MonkeyShopSigning",
      dependencies: [
        "MonkeyShopDomain",
        "MonkeyShopStorage",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    // Apple's App Store Server API over HTTP for the data folder's record: the routes, the
    // In-App Purchase key and the bearer-token check (docs/server.md).
    .target(
      name: "MonkeyShopServer",
      dependencies: [
        "MonkeyShopDomain",
        "MonkeyShopStorage",
        "MonkeyShopSigning",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ]
    ),
    // App Store Server Notifications V2: the sender that POSTs each recorded notification to the
    // folder's notificationURL, retries on Apple's schedule and records every attempt.
    .target(
      name: "MonkeyShopNotifications",
      dependencies: [
        "MonkeyShopDomain",
        "MonkeyShopStorage",
        "MonkeyShopSigning",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    ),
    // The ncurses screen, keys, signals and the event loop the storefront runs in.
    .target(
      name: "MonkeyShopTerminal",
      dependencies: ["CNCurses", "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp"]
    ),
    .executableTarget(
      name: "monkeyshop",
      dependencies: [
        "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp", "MonkeyShopWalkthrough",
        "MonkeyShopSigning",
        "MonkeyShopServer",
        "MonkeyShopTerminal",
        "MonkeyShopNotifications",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // The shipped catalog, built into the binary so an installed monkeyshop sells from any
      // folder (`PackageResources.products_plist`). The file is a link to the repository's
      // products.plist: one catalog, never a second copy to keep in step. HostedContent is a link
      // to the repository's folder of hosted-content packages, built in the same way.
      resources: [.embedInCode("products.plist"), .embedInCode("HostedContent")]
    ),
    .executableTarget(
      name: "MonkeyShopBenchmarks",
      dependencies: ["MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp", "MonkeyShopWalkthrough"],
      path: "Benchmarks/MonkeyShopBenchmarks"
    ),
    .executableTarget(
      name: "MinimalNCurses",
      dependencies: ["CNCurses"],
      path: "Benchmarks/MinimalNCurses"
    ),
    .executableTarget(
      name: "MinimalNCursesFoundation",
      dependencies: ["CNCurses"],
      path: "Benchmarks/MinimalNCursesFoundation"
    ),
    .executableTarget(
      name: "MinimalHummingbird",
      dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
      path: "Benchmarks/MinimalHummingbird"
    ),
    .testTarget(
      name: "MonkeyShopCoreTests",
      dependencies: [
        "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp", "MonkeyShopWalkthrough",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "MonkeyShopSigningTests",
      dependencies: [
        "MonkeyShopDomain",
        "MonkeyShopStorage",
        "MonkeyShopSigning",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    .testTarget(
      name: "MonkeyShopTerminalTests",
      dependencies: [
        "CNCurses", "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp", "MonkeyShopWalkthrough",
        "MonkeyShopTerminal",
      ]
    ),
    .testTarget(
      name: "MonkeyShopServerTests",
      dependencies: [
        "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopServer", "MonkeyShopNotifications", "MonkeyShopSigning",
      ]
    ),
    .testTarget(
      name: "MonkeyShopEndToEndTests",
      dependencies: [
        "MonkeyShopDomain", "MonkeyShopStorage", "MonkeyShopApp", "MonkeyShopWalkthrough",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Start-up: a release build names each generic type it needs by its mangled name, and the runtime
// checks that name's requirements by scanning every protocol conformance in the binary (about
// 7,500 with the server's libraries, 0.7 million instructions a scan, ten scans before the first
// frame). With this flag the compiler calls each type's metadata accessor with the conformances it
// already knows instead (docs/performance.md).
for target in package.targets where target.type == .regular || target.type == .executable {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
    ]
}
