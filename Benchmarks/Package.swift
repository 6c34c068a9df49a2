// swift-tools-version:6.0
import PackageDescription

// Benchmarks for ImageCodecs: our decoders against the C references, in process, same files,
// same run. Its own package so that the library's package never links a C codec.
let package = Package(
    name: "ImageCodecsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ImageCodecs", path: ".."),
    ],
    targets: [
        // What the benchmarks share: the inputs (corpus, make-inputs.sh), the command
        // line, the timing loop, the byte-for-byte check, the Markdown report, the memory probe
        // and our still-image decode.
        .target(name: "BenchSupport", dependencies: [.product(name: "ImageCodecs", package: "ImageCodecs")]),
        .systemLibrary(
            name: "CSpng",
            pkgConfig: "spng",
            providers: [.apt(["libspng-dev"]), .brew(["libspng"])]
        ),
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // libpng's classic API reports errors by longjmp, which Swift cannot catch: a few lines
        // of C keep the setjmp on the C side.
        .target(name: "CLibPNGShim", dependencies: ["CLibPNG"]),
        .executableTarget(
            name: "PNGBench",
            dependencies: [
                .product(name: "ImageCodecs", package: "ImageCodecs"),
                "BenchSupport",
                "CSpng",
                "CLibPNGShim",
            ]
        ),
        .executableTarget(
            name: "EncodeBench",
            dependencies: [
                .product(name: "ImageCodecs", package: "ImageCodecs"),
                "BenchSupport",
                "CSpng",
                "CLibPNGShim",
            ]
        ),
        .systemLibrary(
            name: "CGif",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]
        ),
        // giflib gives each image's indices (DGifSlurp); compositing them onto the RGBA8 canvas,
        // which our decoder does itself, is a few lines of C (the rules of the conformance
        // reference, Conformance/scripts/gif_composite.c).
        .target(name: "CGifShim", dependencies: ["CGif"]),
        .executableTarget(
            name: "GIFBench",
            dependencies: [
                .product(name: "ImageCodecs", package: "ImageCodecs"),
                "BenchSupport",
                "CGifShim",
            ]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
        ),
        // libjpeg reports errors by longjmp, as libpng does: the C shim keeps the setjmp in C and
        // reads scanlines straight into the RGBA8 output.
        .target(name: "CLibJPEGShim", dependencies: ["CLibJPEG"]),
        .executableTarget(
            name: "JPEGBench",
            dependencies: [
                .product(name: "ImageCodecs", package: "ImageCodecs"),
                "BenchSupport",
                "CLibJPEGShim",
            ]
        ),
        .systemLibrary(
            name: "CLibWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .executableTarget(
            name: "WebPBench",
            dependencies: [
                .product(name: "ImageCodecs", package: "ImageCodecs"),
                "BenchSupport",
                "CLibWebP",
            ]
        ),
        // ImageSource as a whole: readers while another thread decodes, thumbnails over a download.
        .executableTarget(
            name: "SourceBench",
            dependencies: [.product(name: "ImageCodecs", package: "ImageCodecs"), "BenchSupport"]
        ),
    ]
)
