import BenchSupport

/// JPEGBench's files: the 3.4 MP flower JPEGs of the corpus (one per sampling, and progressive),
/// the harvesters photo, and the JPEGs that `make-inputs.sh` makes in `.inputs/` from the large
/// photo (24 MP and 8.6 MP, baseline 4:2:0 and 4:4:4, progressive 4:2:0, and baseline 4:2:0 with
/// a restart marker every MCU row; quality 90). Its stamp is `.complete-jpeg2`: a folder made
/// before the script made the restart-interval JPEGs lacks it.
let inputs = InputSet(
    corpusFolder: nil,
    // Relative to the corpus root. See jpeg/PROVENANCE.md and photos/PROVENANCE.md.
    corpusFiles: [
        "jpeg/libjxl-flower/flower.png.im_q85_420.jpg",       // 2268x1512, cjpeg -quality 85
        "jpeg/libjxl-flower/flower.png.im_q85_444.jpg",
        "jpeg/libjxl-flower/flower.png.im_q85_422.jpg",
        "jpeg/libjxl-flower/flower.png.im_q85_440.jpg",
        "jpeg/libjxl-flower/flower.png.im_q85_420_progr.jpg", // progressive 4:2:0
        "photos/harvesters/harvesters.jpeg",                  // 1165x859, baseline 4:2:0
    ],
    nameFolder: "jpeg",
    generatedExtension: "jpg",
    stamp: ".complete-jpeg2"
)
