/// The entropy image (RFC 9649 section 3.7.2.2, "meta prefix codes"): the image is cut into
/// tiles, each tile's tokens are counted, and the tile histograms are clustered into prefix
/// code groups — first tiles with similar literal entropies are pooled into bins, then the
/// pair of groups whose merging saves the most estimated bits is merged, until no merge
/// saves bits and at most `maxGroups` remain.
enum VP8LEntropyImageBuilder {
    /// The most tiles counted (larger images get larger tiles).
    static let maxTiles = 2600
    /// Bins per literal channel (green, red, blue) when pooling tiles.
    static let binsPerChannel = 4

    static func build(_ tokens: [VP8LToken], width: Int, height: Int, bits requested: Int, cacheBits: Int,
                      maxGroups: Int) -> VP8LImageWriter.EntropyImage? {
        var bits = requested
        while bits < 9 && VP8LEntropyCoding.subsampledSize(width, bits: bits)
            * VP8LEntropyCoding.subsampledSize(height, bits: bits) > maxTiles { bits += 1 }
        let tilesX = VP8LEntropyCoding.subsampledSize(width, bits: bits)
        let tilesY = VP8LEntropyCoding.subsampledSize(height, bits: bits)
        guard tilesX * tilesY > 1, maxGroups > 1 else { return nil }
        var tiles = [VP8LHistogram](repeating: VP8LHistogram(cacheBits: cacheBits), count: tilesX * tilesY)
        let all = VP8LImageWriter.EntropyImage(bits: bits, tilesPerRow: tilesX, groupOfTile: Array(0..<(tilesX * tilesY)),
                                                groupCount: tilesX * tilesY)
        VP8LImageWriter.forEachToken(tokens, width: width, entropyImage: all) { token, tile in tiles[tile].add(token) }

        // Pool tiles by the entropy of their green, red and blue literals.
        let features = tiles.map(literalEntropies)
        var low = [Double](repeating: .infinity, count: 3), high = [Double](repeating: -.infinity, count: 3)
        for f in features {
            for c in 0..<3 { low[c] = min(low[c], f[c]); high[c] = max(high[c], f[c]) }
        }
        var binOfTile = [Int](repeating: 0, count: tiles.count)
        var groups: [VP8LHistogram] = []
        var groupOfBin: [Int: Int] = [:]
        for t in tiles.indices {
            var key = 0
            for c in 0..<3 {
                let span = high[c] - low[c]
                let q = span > 0 ? min(binsPerChannel - 1, Int((features[t][c] - low[c]) / span * Double(binsPerChannel))) : 0
                key = key * binsPerChannel + q
            }
            if let g = groupOfBin[key] {
                groups[g].add(tiles[t])
                binOfTile[t] = g
            } else {
                groupOfBin[key] = groups.count
                binOfTile[t] = groups.count
                groups.append(tiles[t])
            }
        }
        let mergedInto = mergeGreedily(&groups, maxGroups: maxGroups)
        guard groups.count > 1 else { return nil }
        let groupOfTile = binOfTile.map { mergedInto[$0] }
        return VP8LImageWriter.EntropyImage(bits: bits, tilesPerRow: tilesX, groupOfTile: groupOfTile,
                                            groupCount: groups.count)
    }

    /// Entropy (bits per symbol) of the green, red and blue literal counts of a histogram.
    static func literalEntropies(_ h: VP8LHistogram) -> [Double] {
        let b = h.bounds
        return h.counts.withUnsafeBufferPointer { c in
            [(0, 256), (b[1], b[1] + 256), (b[2], b[2] + 256)].map { range in
                var total = 0.0, sum = 0.0
                for i in range.0..<range.1 where c[i] > 0 {
                    let v = Double(c[i])
                    total += v
                    sum += v * VP8LLog.log2(v)
                }
                return total > 0 ? VP8LLog.log2(total) - sum / total : 0
            }
        }
    }

    /// Merges the pair that saves the most bits until none saves any and at most `maxGroups`
    /// remain; returns, for each original group, its final index (groups are compacted).
    static func mergeGreedily(_ groups: inout [VP8LHistogram], maxGroups: Int) -> [Int] {
        let n = groups.count
        var alive = [Bool](repeating: true, count: n)
        var bits = groups.map { $0.estimatedBits() }
        var gain = [Double](repeating: -.infinity, count: n * n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                gain[i * n + j] = bits[i] + bits[j] - groups[i].estimatedBits(mergedWith: groups[j])
            }
        }
        var parent = Array(0..<n)
        var count = n
        while count > 1 {
            var best = (-Double.infinity, 0, 0)
            for i in 0..<n where alive[i] {
                for j in (i + 1)..<max(i + 1, n) where alive[j] && gain[i * n + j] > best.0 {
                    best = (gain[i * n + j], i, j)
                }
            }
            guard best.0 > 0 || count > maxGroups, best.1 != best.2 else { break }
            let (i, j) = (best.1, best.2)
            groups[i].add(groups[j])
            bits[i] = groups[i].estimatedBits()
            alive[j] = false
            parent[j] = i
            count -= 1
            for k in 0..<n where alive[k] && k != i {
                let (a, b) = k < i ? (k, i) : (i, k)
                gain[a * n + b] = bits[a] + bits[b] - groups[a].estimatedBits(mergedWith: groups[b])
            }
        }
        var index = [Int](repeating: -1, count: n)
        var compacted: [VP8LHistogram] = []
        for i in 0..<n where alive[i] {
            index[i] = compacted.count
            compacted.append(groups[i])
        }
        groups = compacted
        return (0..<n).map { g in
            var root = g
            while !alive[root] { root = parent[root] }
            return index[root]
        }
    }
}
