/// LZ77 parsing of an ARGB image into literals and backward references (RFC 9649 section
/// 5.2.2), with hash chains over pixel pairs. Every position is also checked against the
/// pixel to its left and the one above (distance codes 2 and 1), which plain runs and
/// repeated rows make the cheapest copies.
struct VP8LBackwardReferences {
    /// RFC 9649 3.7.1.2: the largest pixel distance (the largest distance code, 2^20, less 120).
    static let windowSize = (1 << 20) - 120
    static let hashBits = 18

    /// Chain candidates examined per position.
    var maxChainSteps: Int
    /// The shortest copy worth a reference.
    var minLength: Int
    /// Whether a match is deferred when the next position starts a longer one.
    var lazy: Bool
    /// Whether ``matches(_:width:)`` also finds the neighbour matches the cost-driven parse
    /// weighs against the longest.
    var searchesNeighbours = false

    /// The tokens of `pixels` (`width` wide): literals and copies, in order.
    func tokens(_ pixels: UnsafeBufferPointer<UInt32>, width: Int) -> [VP8LToken] {
        let n = pixels.count
        var tokens: [VP8LToken] = []
        tokens.reserveCapacity(n / 2 + 16)
        guard n > 0, let p = pixels.baseAddress else { return tokens }
        let chain = maxChainSteps > 0 ? Self.hashChain(p, count: n) : []
        VP8LPrefixEncoding.planeCodes.withUnsafeBufferPointer { planes in
            VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { map in
                chain.withUnsafeBufferPointer { chain in
                    var i = 0
                    while i < n {
                        var (length, distance) = bestMatch(p, count: n, at: i, width: width, chain: chain)
                        if lazy && length >= minLength && length < 64 && i &+ 1 < n {
                            let next = bestMatch(p, count: n, at: i &+ 1, width: width, chain: chain)
                            if next.length > length &+ 1 { length = 0 }
                        }
                        if length >= minLength {
                            let code = VP8LPrefixEncoding.distanceCode(distance, width: width, planeCodes: planes.baseAddress!,
                                                                        map: map.baseAddress!)
                            tokens.append(.copy(length: length, distanceCode: code))
                            i &+= length
                        } else {
                            tokens.append(.literal(p[i]))
                            i &+= 1
                        }
                    }
                }
            }
        }
        return tokens
    }

    /// The run parse: at each position the longer copy from the left pixel and from the one
    /// above (distance codes 2 and 1) when at least ``minLength`` long, else a literal.
    func runTokens(_ pixels: UnsafeBufferPointer<UInt32>, width: Int) -> [VP8LToken] {
        let n = pixels.count
        var tokens: [VP8LToken] = []
        guard n > 0, let p = pixels.baseAddress else { return tokens }
        let (leftCode, upCode) = VP8LPrefixEncoding.planeCodes.withUnsafeBufferPointer { planes in
            VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { map in
                (VP8LPrefixEncoding.distanceCode(1, width: width, planeCodes: planes.baseAddress!, map: map.baseAddress!),
                 VP8LPrefixEncoding.distanceCode(width, width: width, planeCodes: planes.baseAddress!, map: map.baseAddress!))
            }
        }
        var i = 0
        while i < n {
            let limit = min(VP8LBackwardReference.maxLength, n &- i)
            let left = i >= 1 ? Self.matchLength(p, i &- 1, i, limit: limit) : 0
            let up = i >= width ? Self.matchLength(p, i &- width, i, limit: limit) : 0
            if max(left, up) >= minLength {
                tokens.append(up >= left ? .copy(length: up, distanceCode: upCode) : .copy(length: left, distanceCode: leftCode))
                i &+= max(left, up)
            } else {
                tokens.append(.literal(p[i]))
                i &+= 1
            }
        }
        return tokens
    }

    /// `chain[i]`: the previous position whose pixel pair hashes as position i's, or −1.
    static func hashChain(_ p: UnsafePointer<UInt32>, count n: Int) -> [Int32] {
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var chain = [Int32](repeating: -1, count: n)
        head.withUnsafeMutableBufferPointer { head in
            chain.withUnsafeMutableBufferPointer { chain in
                var i = 0
                while i &+ 1 < n {
                    let h = hash(p[i], p[i &+ 1])
                    chain[i] = head[h]
                    head[h] = Int32(truncatingIfNeeded: i)
                    i &+= 1
                }
            }
        }
        return chain
    }

    @inline(__always)
    static func hash(_ a: UInt32, _ b: UInt32) -> Int {
        let key = (a &* 0x1E35_A7BD) ^ (b &* 0x9E37_79B1 &+ 0x7F4A_7C15)
        return Int(key &>> UInt32(32 &- hashBits))
    }

    /// The longest match at `i` (ties: the nearer), within the window and 4096 pixels.
    @inline(__always)
    func bestMatch(_ p: UnsafePointer<UInt32>, count n: Int, at i: Int, width: Int,
                   chain: UnsafeBufferPointer<Int32>) -> (length: Int, distance: Int) {
        let limit = min(VP8LBackwardReference.maxLength, n &- i)
        var bestLength = 0, bestDistance = 0
        if i >= 1 {
            let l = Self.matchLength(p, i &- 1, i, limit: limit)
            if l > bestLength { bestLength = l; bestDistance = 1 }
        }
        if i >= width && width > 1 {
            let l = Self.matchLength(p, i &- width, i, limit: limit)
            if l > bestLength { bestLength = l; bestDistance = width }
        }
        if bestLength >= limit || chain.isEmpty || limit < 2 { return (bestLength, bestDistance) }
        var candidate = Int(chain[i])
        var steps = maxChainSteps
        let lowest = i &- Self.windowSize
        while candidate >= 0 && candidate > lowest && steps > 0 {
            steps &-= 1
            if p[candidate &+ bestLength] == p[i &+ bestLength] {
                let l = Self.matchLength(p, candidate, i, limit: limit)
                if l > bestLength {
                    bestLength = l
                    bestDistance = i &- candidate
                    if l >= limit { break }
                }
            }
            candidate = Int(chain[candidate])
        }
        return (bestLength, bestDistance)
    }

    @inline(__always)
    static func matchLength(_ p: UnsafePointer<UInt32>, _ a: Int, _ b: Int, limit: Int) -> Int {
        var k = 0
        while k < limit && p[a &+ k] == p[b &+ k] { k &+= 1 }
        return k
    }
}
