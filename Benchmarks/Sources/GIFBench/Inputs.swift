import BenchSupport

/// GIFBench's files: GIFs of the corpus, and the GIFs that `make-inputs.sh` makes from corpus
/// photos in `.inputs/` (GIFs of photos, the kind the corpus has least of). Its stamp is
/// `.complete-gif`: a folder made before the script made GIFs has only `.complete`.
let inputs = InputSet(
    corpusFolder: nil,
    // Relative to the corpus root: the largest stills and the real-world animations. See
    // gif/PROVENANCE.md and gif/FEATURES.tsv.
    corpusFiles: [
        // Stills, largest first.
        "photos/harvesters/harvesters.gif",              // 1165x859
        "gif/pillow/test.colors.gif",                    // 807x606, 87a
        "gif/giflib/pic/solid2.gif",                     // 640x400, 87a
        "gif/giflib/tests/wedge.gif",                    // 640x350, 87a
        "gif/image-gif/samples/interlaced.gif",          // 540x330, interlaced
        "gif/wuffs/hibiscus.regular.gif",                // 312x442
        "gif/wuffs/hibiscus.primitive.gif",              // 312x442, few colours
        "gif/giflib/pic/porsche.gif",                    // 320x200, 87a
        "gif/wuffs/bricks-dither.gif",                   // 160x120
        "gif/wuffs/hippopotamus.regular.gif",            // 36x28
        // Animations.
        "gif/image-gif/samples/gifplayer-muybridge.gif", // 472x298, 380 frames
        "gif/image-gif/samples/sample_big.gif",          // 1000x175, 259 frames, local palettes only
        "gif/image-rs/images/anim/large-gif-anim-combine.gif",            // 1000x1000, 2 frames
        "gif/image-rs/images/anim/large-gif-anim-full-frame-replace.gif", // 1000x1000, 2 frames
        "gif/pillow/iss634.gif",                         // 245x245, 42 frames, local palettes only
        "gif/pillow/chi.gif",                            // 320x240, 31 frames
        "gif/image-gif/samples/moon_impact.gif",         // 116x100, 14 frames, local palettes
        "gif/libnsgif/waves.gif",                        // 268x86, 10 frames
        "gif/giflib/pic/welcome2.gif",                   // 290x48, 6 frames
        "gif/giflib/pic/fire.gif",                       // 30x60, 33 interlaced frames
        "gif/wuffs/muybridge.gif",                       // 30x20, 15 frames
    ],
    nameFolder: "gif",
    generatedExtension: "gif",
    stamp: ".complete-8mp"
)
