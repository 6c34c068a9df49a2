/// What each effort level (0…9, in the spirit of `cwebp -z`) spends on analysis: the LZ77
/// chain length, the predictor modes tried and the tile sizes, the colour cache search, the
/// entropy image, and whether several transform choices are all tried.
struct VP8LEncoderSettings {
    var chainSteps: Int
    var lazyMatching: Bool
    var minCopyLength: Int
    /// Cost-driven parses (``VP8LOptimalParse``) after the greedy one, each priced by the last.
    var optimalParses: Int
    var predictorModes: [Int]
    var predictorBits: Int
    var crossColorBits: Int
    var useCrossColor: Bool
    var maxCacheBits: Int
    /// 0: one prefix code group; else the entropy image's tile bits.
    var entropyImageBits: Int
    /// The most prefix code groups the clustering keeps.
    var maxGroups: Int
    /// Try both the palette and the spatial transforms (and none) and keep the smallest.
    var tryAllTransforms: Bool

    init(effort: Int) {
        let e = min(max(effort, 0), 9)
        chainSteps = [4, 8, 12, 16, 24, 32, 64, 128, 256, 512][e]
        lazyMatching = e >= 6
        minCopyLength = 4
        optimalParses = e >= 8 ? 3 : e >= 5 ? 2 : e >= 4 ? 1 : 0
        predictorModes = e <= 1 ? [1, 2, 11, 12] : Array(0..<VP8LPredictorEncoding.modeCount)
        predictorBits = e <= 2 ? 5 : 4
        crossColorBits = e <= 2 ? 6 : 5
        useCrossColor = e >= 1
        maxCacheBits = e == 0 ? 0 : e <= 2 ? 8 : 10
        entropyImageBits = e <= 3 ? 0 : e <= 6 ? 6 : 5
        maxGroups = e <= 6 ? 16 : 64
        tryAllTransforms = e >= 7
    }
}
