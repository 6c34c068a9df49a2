/// The entropy image (RFC 9649 section 3.7.2.2, "meta prefix codes"): the image is cut into
/// tiles, each tile's tokens are counted, and the tile histograms are clustered into prefix
/// code groups — first tiles with similar literal entropies are pooled into bins, then the
/// pair of groups whose merging saves the most estimated bits is merged, until no merge
/// saves bits and at most `maxGroups` remain.
enum VP8LEntropyImageBuilder {
    /// The most tiles counted (larger images get larger tiles).
    static let maxTiles = 2600
    /// Bins per literal channel (green, red, blue) when pooling tiles: 4, or for a finer
    /// (slower) clustering more.
    static let binsPerChannel = 4

    static func build(_ tokens: [VP8LToken], width: Int, height: Int, bits requested: Int, cacheBits: Int,
                      maxGroups: Int, binsPerChannel: Int = binsPerChannel) -> VP8LImageWriter.EntropyImage? {
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
        var groupOfTile = binOfTile.map { mergedInto[$0] }
        let used = tiles.map { tile in
            tile.counts.indices.compactMap { tile.counts[$0] > 0 ? Int32($0) : nil }
        }
        for _ in 0..<remapPasses {
            guard remap(tiles, used: used, cacheBits: cacheBits, groups: &groups, groupOfTile: &groupOfTile) else { break }
        }
        guard groups.count > 1 else { return nil }
        return VP8LImageWriter.EntropyImage(bits: bits, tilesPerRow: tilesX, groupOfTile: groupOfTile,
                                            groupCount: groups.count)
    }

    /// Passes of ``remap(_:used:cacheBits:groups:groupOfTile:)`` after the merging.
    static let remapPasses = 3

    /// Moves each tile to the group whose code would spend the fewest bits on its symbols
    /// (`log2(total / count)` per symbol under the group's counts; a symbol the group lacks
    /// costs one bit more than its whole alphabet's total would), then recounts the groups and
    /// drops empty ones. `used` lists each tile's symbols with a count. Returns whether any
    /// tile moved.
    static func remap(_ tiles: [VP8LHistogram], used: [[Int32]], cacheBits: Int, groups: inout [VP8LHistogram],
                      groupOfTile: inout [Int]) -> Bool {
        guard let first = groups.first else { return false }
        let bounds = first.bounds
        let stride = first.counts.count
        var costs = [Float](repeating: 0, count: stride * groups.count)
        costs.withUnsafeMutableBufferPointer { table in
            for (g, group) in groups.enumerated() {
                group.counts.withUnsafeBufferPointer { c in
                    for k in 0..<5 {
                        var total = 0.0
                        for i in bounds[k]..<bounds[k + 1] { total += Double(c[i]) }
                        let logTotal = VP8LLog.log2(total + 1)
                        for i in bounds[k]..<bounds[k + 1] {
                            table[g * stride + i] = c[i] > 0 ? Float(logTotal - VP8LLog.log2(Double(c[i]) + 1))
                                : Float(logTotal + 1)
                        }
                    }
                }
            }
        }
        var moved = false
        costs.withUnsafeBufferPointer { table in
            for t in tiles.indices {
                var best = groupOfTile[t], bestCost = Float.infinity
                tiles[t].counts.withUnsafeBufferPointer { c in
                    used[t].withUnsafeBufferPointer { symbols in
                        for g in 0..<groups.count {
                            let row = g &* stride
                            var cost: Float = 0
                            for i in symbols { cost += Float(c[Int(i)]) * table[row &+ Int(i)] }
                            if cost < bestCost || (cost == bestCost && g == groupOfTile[t]) {
                                bestCost = cost
                                best = g
                            }
                        }
                    }
                }
                if best != groupOfTile[t] {
                    groupOfTile[t] = best
                    moved = true
                }
            }
        }
        var index = [Int](repeating: -1, count: groups.count)
        var recounted: [VP8LHistogram] = []
        for t in tiles.indices {
            let g = groupOfTile[t]
            if index[g] < 0 {
                index[g] = recounted.count
                recounted.append(VP8LHistogram(cacheBits: cacheBits))
            }
            groupOfTile[t] = index[g]
            recounted[index[g]].add(tiles[t])
        }
        groups = recounted
        return moved
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
