// swift-tools-version:6.0
// libFuzzer targets for ImageCodecs. A package of its own so that a plain `swift build` at the
// root never tries to link a fuzzer (LLVMFuzzerRunDriver exists only with -sanitize=fuzzer).
// Build and run with ./run.sh (see README.md).
import PackageDescription

let package = Package(
    name: "ImageCodecsFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ImageCodecs", path: ".."),
    ],
    targets: [
        // The decoding, the checks and the libFuzzer driver call the targets share.
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        .executableTarget(
            name: "FuzzPNG",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        .executableTarget(
            name: "FuzzGIF",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        // The GIF encoder: the input is a request (sizes, frames, options, pixels), not a file.
        .executableTarget(
            name: "FuzzGIFEncode",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        // The ICC profile parser and colour transform: the input is a profile.
        .executableTarget(
            name: "FuzzICC",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        .executableTarget(
            name: "FuzzJPEG",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        // The JPEG encoder: random images with random settings, decoded back.
        .executableTarget(
            name: "FuzzJPEGEncode",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        // The lossless transcoder: JPEG bytes with random transform settings, the output decoded back.
        .executableTarget(
            name: "FuzzJPEGTranscode",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs"),
                           .product(name: "JPEGCodec", package: "ImageCodecs")]
        ),
        .executableTarget(
            name: "FuzzEncode",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        // The lossless WebP encoder: random images, animations and settings, decoded back.
        .executableTarget(
            name: "FuzzWebPEncode",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
        .executableTarget(
            name: "FuzzWebP",
            dependencies: ["FuzzSupport", .product(name: "ImageCodecs", package: "ImageCodecs")]
        ),
    ]
)
