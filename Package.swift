// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "monkeyshop",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "monkeyshop", targets: ["monkeyshop"]),
    .library(name: "MonkeyShopCore", targets: ["MonkeyShopCore"]),
    .library(name: "MonkeyShopTerminal", targets: ["MonkeyShopTerminal"]),
    .executable(name: "monkeyshop-benchmarks", targets: ["MonkeyShopBenchmarks"]),
    .executable(name: "minimal-ncurses", targets: ["MinimalNCurses"]),
    .executable(name: "minimal-ncurses-foundation", targets: ["MinimalNCursesFoundation"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
  ],
  targets: [
    .systemLibrary(
      name: "CNCurses",
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
    ),
    .target(
      name: "MonkeyShopCore",
      dependencies: [.product(name: "Yams", package: "Yams")]
    ),
    // Signed transactions (SPEC §8): the certificate chain and the JWS. The crypto stays out of
    // MonkeyShopCore, which builds the payload the signature covers.
    .target(
      name: "MonkeyShopSigning",
      dependencies: [
        "MonkeyShopCore",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    .target(
      name: "MonkeyShopTerminal",
      dependencies: ["CNCurses", "MonkeyShopCore"]
    ),
    .executableTarget(
      name: "monkeyshop",
      dependencies: [
        "MonkeyShopCore",
        "MonkeyShopSigning",
        "MonkeyShopTerminal",
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
      dependencies: ["MonkeyShopCore"],
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
    .testTarget(
      name: "MonkeyShopCoreTests",
      dependencies: [
        "MonkeyShopCore",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "MonkeyShopSigningTests",
      dependencies: [
        "MonkeyShopCore",
        "MonkeyShopSigning",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    .testTarget(
      name: "MonkeyShopTerminalTests",
      dependencies: ["CNCurses", "MonkeyShopCore", "MonkeyShopTerminal"]
    ),
    .testTarget(
      name: "MonkeyShopEndToEndTests",
      dependencies: ["MonkeyShopCore"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
