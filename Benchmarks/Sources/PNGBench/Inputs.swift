import BenchSupport

/// PNGBench's files: PNG photos of the corpus, and the PNGs that `make-inputs.sh` makes in
/// `.inputs/` for the kinds the corpus lacks.
let inputs = InputSet(
    corpusFolder: "photos",
    // Relative to `photos/`: RGB8 from small to 8 MP, palette, and the one RGBA8 file (a
    // screenshot). See photos/PROVENANCE.md.
    corpusFiles: [
        "kodak/kodim01.png",
        "kodak/kodim23.png",
        "harvesters/harvesters.png",
        "image-png-benches/Fantasy_Digital_Painting.png",
        "image-png-benches/Exoplanet_Phase_Curve__Diagram_.png",
        "image-png-benches/lorem_ipsum_screenshot.png",
        "image-png-benches/lorem_ipsum_oxipng.png",
        "image-png-benches/paletted-zune.png",
        "image-png-benches/Exoplanet_Phase_Curve__Diagram__indexed_gimp.png",
    ],
    nameFolder: "photos",
    generatedExtension: "png",
    stamp: ".complete-8mp"
)
