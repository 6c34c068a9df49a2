import BenchSupport

/// WebPBench's files: the corpus' largest lossless stills (libwebp's test data, image-webp's
/// gallery2 and regression files, wuffs' hibiscus), and lossy stills with and without alpha
/// (image-webp's gallery1 and gallery2, libwebp's test data); then `.inputs/*.webp` from
/// `make-inputs.sh` (stamp `.complete-webp2`): an 8.6 MP lossless photo, 24 MP lossy photos at q75
/// and q90, an 8.6 MP lossy photo with alpha, and a 10-frame lossy animation of Kodak photos.
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
        "image-webp/images/gallery1/3.webp",                      // 1280x720, lossy
        "libwebp-test-data/lossy_extreme_probabilities.webp",     // 800x534, lossy
        "image-webp/images/gallery2/3_webp_a.webp",               // 800x600, lossy + ALPH
        "libwebp-test-data/lossy_alpha1.webp",                    // 1000x307, lossy + ALPH
    ],
    nameFolder: "webp",
    generatedExtension: "webp",
    stamp: ".complete-webp2"
)
