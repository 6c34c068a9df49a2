/// The cost-driven LZ77 parse: the cheapest path from the first pixel to the last, where each
/// step is a literal (or a colour cache hit, whose presence does not depend on the path: the
/// cache takes every pixel in scan order) or a copy of the match found at that position,
/// whole or shortened, priced by a ``VP8LCostModel`` of a first, greedy parse.
extension VP8LBackwardReferences {
    /// Lengths tried below the full match length.
    static let shortenedLengths = 16

    /// The match found at each position (length and distance; a long match's tail positions
    /// take it over, one shorter, instead of searching again).
    struct Matches {
        var length: [UInt16]
        var distance: [Int32]
        /// With ``searchesNeighbours``: the longest match among the 120 neighbours that have
        /// short distance codes (RFC 9649 4.2.2), and its code; empty otherwise.
        var neighbourLength: [UInt16] = []
        var neighbourCode: [UInt8] = []
    }

    func matches(_ pixels: UnsafeBufferPointer<UInt32>, width: Int) -> Matches {
        let n = pixels.count
        var result = Matches(length: [UInt16](repeating: 0, count: n), distance: [Int32](repeating: 0, count: n))
        guard n > 0, let p = pixels.baseAddress else { return result }
        let chain = Self.hashChain(p, count: n)
        chain.withUnsafeBufferPointer { chain in
            var carried = (length: 0, distance: 0)
            for i in 0..<n {
                if carried.length > Self.shortenedLengths {
                    carried = (carried.length - 1, carried.distance)
                } else {
                    carried = bestMatch(p, count: n, at: i, width: width, chain: chain)
                }
                result.length[i] = UInt16(carried.length)
                result.distance[i] = Int32(carried.distance)
            }
        }
        if searchesNeighbours { findNeighbourMatches(p, count: n, width: width, into: &result) }
        return result
    }

    /// Fills the neighbour matches: at each position the longest copy (ties: the lower code)
    /// from the pixels that distance codes 1…120 name. In noisy areas the longest match is
    /// often far away, its distance costing more than the copy saves, while a shorter one
    /// from a neighbour is cheap.
    func findNeighbourMatches(_ p: UnsafePointer<UInt32>, count n: Int, width: Int, into result: inout Matches) {
        let codes = VP8LBackwardReference.distanceMapSize
        let distances: [Int] = VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { map in
            (1...codes).map { VP8LBackwardReference.distance(code: $0, width: width, map: map.baseAddress!) }
        }
        var lengths = [UInt16](repeating: 0, count: n)
        var found = [UInt8](repeating: 0, count: n)
        distances.withUnsafeBufferPointer { d in
            for i in 1..<max(1, n) {
                let limit = min(VP8LBackwardReference.maxLength, n &- i)
                guard limit >= 2 else { continue }
                // Inside a long copy the same neighbour goes on matching, one shorter: taken
                // over without searching (in flat areas every search would run to the limit).
                if lengths[i &- 1] > Self.shortenedLengths {
                    lengths[i] = lengths[i &- 1] &- 1
                    found[i] = found[i &- 1]
                    continue
                }
                var best = 1, bestCode = 0
                for c in 0..<codes {
                    let from = i &- d[c]
                    guard from >= 0, p[from &+ best] == p[i &+ best] else { continue }
                    let l = Self.matchLength(p, from, i, limit: limit)
                    if l > best {
                        best = l
                        bestCode = c &+ 1
                        if l >= limit { break }
                    }
                }
                if bestCode > 0 {
                    lengths[i] = UInt16(best)
                    found[i] = UInt8(bestCode)
                }
            }
        }
        result.neighbourLength = lengths
        result.neighbourCode = found
    }

    /// The greedy parse over precomputed `matches` (what ``tokens(_:width:)`` does without
    /// searching again): a copy wherever the match is at least ``minLength`` long, unless
    /// (`lazy`) the next position's is longer by more than one.
    func greedyTokens(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, matches: Matches) -> [VP8LToken] {
        let n = pixels.count
        var tokens: [VP8LToken] = []
        guard n > 0, let p = pixels.baseAddress else { return tokens }
        VP8LPrefixEncoding.planeCodes.withUnsafeBufferPointer { planes in
            VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { map in
                var i = 0
                while i < n {
                    var length = Int(matches.length[i])
                    if lazy && length >= minLength && length < 64 && i + 1 < n && Int(matches.length[i + 1]) > length + 1 {
                        length = 0
                    }
                    if length >= minLength {
                        let code = VP8LPrefixEncoding.distanceCode(Int(matches.distance[i]), width: width,
                                                                    planeCodes: planes.baseAddress!, map: map.baseAddress!)
                        tokens.append(.copy(length: length, distanceCode: code))
                        i += length
                    } else {
                        tokens.append(.literal(p[i]))
                        i += 1
                    }
                }
            }
        }
        return tokens
    }

    func optimalTokens(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, matches: Matches, model: VP8LCostModel,
                       cacheBits: Int) -> [VP8LToken] {
        let n = pixels.count
        guard n > 0, let p = pixels.baseAddress else { return [] }
        let hits = Self.cacheHitCosts(p, count: n, cacheBits: cacheBits, model: model)
        var cost = [Float](repeating: .infinity, count: n + 1)
        // Per position reached by a copy: its length (0: a literal) and its distance.
        var stepLength = [UInt16](repeating: 0, count: n + 1)
        var stepDistance = [Int32](repeating: 0, count: n + 1)
        cost[0] = 0
        let planes = VP8LPrefixEncoding.planeCodes, map = VP8LBackwardReference.distanceMap
        planes.withUnsafeBufferPointer { planes in
        map.withUnsafeBufferPointer { map in
        cost.withUnsafeMutableBufferPointer { cost in
        stepLength.withUnsafeMutableBufferPointer { stepLength in
        stepDistance.withUnsafeMutableBufferPointer { stepDistance in
        matches.length.withUnsafeBufferPointer { matchLength in
        matches.distance.withUnsafeBufferPointer { matchDistance in
        matches.neighbourLength.withUnsafeBufferPointer { neighbourLength in
        matches.neighbourCode.withUnsafeBufferPointer { neighbourCode in
            for i in 0..<n {
                let here = cost[i]
                let literal = min(model.literalCost(p[i]), hits[i])
                if here + literal < cost[i + 1] {
                    cost[i + 1] = here + literal
                    stepLength[i + 1] = 0
                }
                // Offers copies of `length` and shorter (the longest lengths, then
                // 2…`shortenedLengths`) with distance code `code` from position i.
                @inline(__always) func relax(_ length: Int, _ code: Int) {
                    let base = here + model.distanceCost(code)
                    @inline(__always) func offer(_ k: Int) {
                        let c = base + model.lengthCost(k)
                        if c < cost[i &+ k] {
                            cost[i &+ k] = c
                            stepLength[i &+ k] = UInt16(truncatingIfNeeded: k)
                            stepDistance[i &+ k] = Int32(truncatingIfNeeded: code)
                        }
                    }
                    var k = length
                    let lowest = max(2, length - Self.shortenedLengths)
                    while k >= lowest {
                        offer(k)
                        k -= 1
                    }
                    if length > Self.shortenedLengths {
                        for k in 2...Self.shortenedLengths { offer(k) }
                    }
                }
                if !neighbourLength.isEmpty && neighbourLength[i] >= 2 {
                    relax(Int(neighbourLength[i]), Int(neighbourCode[i]))
                }
                let length = Int(matchLength[i])
                guard length >= 2 else { continue }
                relax(length, VP8LPrefixEncoding.distanceCode(Int(matchDistance[i]), width: width,
                                                             planeCodes: planes.baseAddress!, map: map.baseAddress!))
            }
        }
        }
        }
        }
        }
        }
        }
        }
        }
        var tokens: [VP8LToken] = []
        var i = n
        while i > 0 {
            let k = Int(stepLength[i])
            if k == 0 {
                tokens.append(.literal(p[i - 1]))
                i -= 1
            } else {
                tokens.append(.copy(length: k, distanceCode: Int(stepDistance[i])))
                i -= k
            }
        }
        tokens.reverse()
        return tokens
    }

    /// Per position, the cost of its pixel as a cache index when the cache (of `cacheBits`,
    /// fed every earlier pixel) holds it, else infinity.
    static func cacheHitCosts(_ p: UnsafePointer<UInt32>, count n: Int, cacheBits: Int,
                              model: VP8LCostModel) -> [Float] {
        var hits = [Float](repeating: .infinity, count: n)
        guard cacheBits > 0 else { return hits }
        var cache = [UInt32](repeating: 0, count: 1 << cacheBits)
        let shift = UInt32(32 - cacheBits)
        for i in 0..<n {
            let key = VP8LColorCache.index(of: p[i], shift: shift)
            if cache[key] == p[i] { hits[i] = model.cacheIndex[key] }
            cache[key] = p[i]
        }
        return hits
    }
}
