import BenchSupport

/// EncodeBench's files: PNGBench's set (corpus photos and graphics, and the PNGs that
/// `make-inputs.sh` makes in `.inputs/`, among them the 24 MP photo).
let inputs = InputSet(
    corpusFolder: "photos",
    corpusFiles: [
        "kodak/kodim01.png",
        "kodak/kodim23.png",
        "harvesters/harvesters.png",
        "image-png-benches/Fantasy_Digital_Painting.png",
        "image-png-benches/Exoplanet_Phase_Curve__Diagram_.png",
        "image-png-benches/lorem_ipsum_screenshot.png",
        "image-png-benches/paletted-zune.png",
    ],
    nameFolder: "photos",
    generatedExtension: "png",
    stamp: ".complete-8mp"
)
