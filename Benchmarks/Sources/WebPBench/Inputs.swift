import BenchSupport

/// WebPBench's files: the corpus' largest lossless stills (libwebp's test data, image-webp's
/// gallery2 and regression files, wuffs' hibiscus). Lossy files are left out until VP8 is
/// decoded; `make-inputs.sh` makes no WebP yet (its stamp `.complete-webp` says it ran), so
/// `.inputs/*.webp` adds nothing today.
let inputs = InputSet(
    corpusFolder: "webp",
    corpusFiles: [
        "libwebp-test-data/lossless1.webp",                       // 1000x307
        "libwebp-test-data/lossless_color_transform.webp",        // 512x512
        "image-webp/images/gallery2/1_webp_ll.webp",              // 400x301
        "image-webp/images/gallery2/2_webp_ll.webp",              // 386x395
        "image-webp/images/gallery2/3_webp_ll.webp",              // 800x600
        "image-webp/images/regression/lossless_indexed_4bit_palette.webp", // 500x300
        "wuffs/hibiscus.regular.lossless.webp",                   // 312x442
    ],
    nameFolder: "webp",
    generatedExtension: "webp",
    stamp: ".complete-webp"
)
