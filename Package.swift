// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ImageCodecs",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        // The lossless JPEG transcoder (JPEGTranscoder) and the JPEG encoder's own API.
        .library(name: "JPEGCodec", targets: ["JPEGCodec"]),
        .executable(name: "imagecodecs", targets: ["imagecodecs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Header-only: lets the command-line tool tune glibc's malloc (see Play.swift).
        .systemLibrary(name: "CMalloc"),
        .target(name: "CodecCore"),
        .target(name: "PNGCodec", dependencies: ["CodecCore", "CZlib"]),
        .target(name: "GIFCodec", dependencies: ["CodecCore"]),
        .target(name: "JPEGCodec", dependencies: ["CodecCore"]),
        .target(name: "WebPCodec", dependencies: ["CodecCore"]),
        .target(name: "ImageCodecs", dependencies: ["CodecCore", "PNGCodec", "GIFCodec", "JPEGCodec", "WebPCodec"]),
        .executableTarget(
            name: "imagecodecs",
            dependencies: [
                "ImageCodecs", "PNGCodec", "JPEGCodec", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Swift runtime linked in: a dynamically linked tool spends about 2 ms of each
            // run in the loader (relocating libswiftCore, Foundation and the rest), which is
            // 3 % of a 24 MP JPEG encode. The runtime's own Foundation shims are named.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization"],
                             .when(platforms: [.linux])),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["ImageCodecs"], path: "Tests/TestSupport"),
        .testTarget(name: "CodecCoreTests", dependencies: ["CodecCore", "TestSupport"]),
        .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "ImageCodecs", "TestSupport", "CZlib"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "TestSupport"]),
        .testTarget(name: "GIFCodecTests", dependencies: ["GIFCodec", "ImageCodecs", "TestSupport"]),
        .testTarget(name: "JPEGCodecTests", dependencies: ["JPEGCodec", "ImageCodecs", "TestSupport"]),
        .testTarget(name: "WebPCodecTests", dependencies: ["WebPCodec", "CodecCore", "ImageCodecs", "TestSupport"]),
    ]
)
