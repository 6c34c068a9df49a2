/// What each effort level (0…9, in the spirit of `cwebp -z`) spends on analysis: the LZ77
/// chain length, the predictor modes tried and the tile sizes, the colour cache search, the
/// entropy image, and whether several transform choices are all tried.
struct VP8LEncoderSettings {
    var chainSteps: Int
    var lazyMatching: Bool
    var minCopyLength: Int
    /// Whether the cost-driven parses also weigh the longest copy from a near neighbour.
    var searchesNeighbours: Bool
    /// Whether the run parse (copies from the left and the upper pixel only) is tried too.
    var triesRunParse: Bool
    /// Cost-driven parses (``VP8LOptimalParse``) after the greedy one, each priced by the last.
    var optimalParses: Int
    var predictorModes: [Int]
    var predictorBits: Int
    var crossColorBits: Int
    var useCrossColor: Bool
    var maxCacheBits: Int
    /// Colour cache sizes carried through to the written size besides the estimated best one.
    var cacheSizesTried: [Int]
    /// 0: one prefix code group; else the entropy image's tile bits.
    var entropyImageBits: Int
    /// The most prefix code groups the clustering keeps.
    var maxGroups: Int
    /// When above ``VP8LEntropyImageBuilder/binsPerChannel``: the chosen parse is clustered
    /// again from this many bins per channel, and that entropy image kept if smaller.
    var finalBinsPerChannel: Int
    /// Try both the palette and the spatial transforms (and none) and keep the smallest.
    var tryAllTransforms: Bool

    init(effort: Int) {
        let e = min(max(effort, 0), 9)
        chainSteps = [4, 8, 12, 16, 24, 32, 64, 128, 256, 512][e]
        lazyMatching = e >= 6
        minCopyLength = 4
        searchesNeighbours = e >= 9
        triesRunParse = e >= 9
        optimalParses = e >= 8 ? 3 : e >= 5 ? 2 : e >= 4 ? 1 : 0
        predictorModes = e <= 1 ? [1, 2, 11, 12] : Array(0..<VP8LPredictorEncoding.modeCount)
        predictorBits = e <= 2 ? 5 : 4
        crossColorBits = e <= 2 ? 6 : 5
        useCrossColor = e >= 1
        maxCacheBits = e == 0 ? 0 : e <= 2 ? 8 : 10
        cacheSizesTried = e >= 9 ? [0, 4, 6, 8, 10] : []
        entropyImageBits = e <= 3 ? 0 : e <= 6 ? 6 : 5
        maxGroups = e <= 6 ? 16 : 64
        finalBinsPerChannel = e >= 9 ? 8 : 4
        tryAllTransforms = e >= 7
        fitsTilesToSize = e >= 9
        triesSmallestPredictorTiles = e >= 9
    }

    /// From effort 9 the tiles are as small as the image allows: the entropy image's the
    /// smallest (at least 4) with at most ``VP8LEntropyImageBuilder/maxTiles`` tiles, and the
    /// predictor's and colour transform's as small but at most 16 (libwebp's method 6 sizes).
    var fitsTilesToSize: Bool
    /// Whether the spatial choices are also encoded with the predictor's tiles of 4.
    var triesSmallestPredictorTiles: Bool

    /// These settings with the tile sizes fitted to a `width` × `height` image.
    func fitted(width: Int, height: Int) -> VP8LEncoderSettings {
        guard fitsTilesToSize else { return self }
        var fitted = self
        var bits = 2
        while bits < 9 && VP8LEntropyCoding.subsampledSize(width, bits: bits)
            * VP8LEntropyCoding.subsampledSize(height, bits: bits) > VP8LEntropyImageBuilder.maxTiles { bits += 1 }
        fitted.entropyImageBits = bits
        fitted.predictorBits = min(bits, 4)
        fitted.crossColorBits = min(bits, 4)
        return fitted
    }
}
