/// Chooses the colour cache size (RFC 9649 section 3.7.1.3) for a token stream and rewrites
/// literals that the cache holds as cache indices. Caches start as the decoder's do, all zeros,
/// and take every pixel in scan order (literal or copied).
enum VP8LColorCacheSelection {
    /// The cache bits (0 = no cache, else 1…`maxBits`) whose estimated size is least: every
    /// size is simulated in one pass over the pixels, each with its own cache and histogram.
    static func bestBits(_ tokens: [VP8LToken], pixels: UnsafeBufferPointer<UInt32>, maxBits: Int) -> Int {
        guard maxBits > 0, let p = pixels.baseAddress else { return 0 }
        let top = min(maxBits, VP8LColorCache.maxBits)
        var histograms = (0...top).map { VP8LHistogram(cacheBits: $0) }
        // One cache per size, one after the other in a single array: size b starts at 1 << b.
        var caches = [UInt32](repeating: 0, count: 2 << top)
        caches.withUnsafeMutableBufferPointer { cache in
            var position = 0
            for token in tokens {
                histograms[0].add(token)
                if token.kind == VP8LToken.Kind.copy.rawValue {
                    for b in 1...top { histograms[b].add(token) }
                    for k in 0..<token.length {
                        let hash = p[position &+ k] &* VP8LColorCache.hashMultiplier
                        for b in 1...top { cache[(1 &<< b) &+ Int(hash &>> UInt32(32 &- b))] = p[position &+ k] }
                    }
                } else {
                    let argb = token.value
                    let hash = argb &* VP8LColorCache.hashMultiplier
                    for b in 1...top {
                        let key = Int(hash &>> UInt32(32 &- b))
                        let slot = (1 &<< b) &+ key
                        if cache[slot] == argb {
                            histograms[b].add(.cacheIndex(key))
                        } else {
                            histograms[b].add(token)
                            cache[slot] = argb
                        }
                    }
                }
                position &+= token.length
            }
        }
        var best = 0
        var bestBits = Double.infinity
        for b in 0...top {
            let bits = histograms[b].estimatedBits()
            if bits < bestBits {
                bestBits = bits
                best = b
            }
        }
        return best
    }

    /// `tokens` with every literal found in a cache of `bits` turned into its index.
    static func apply(_ tokens: inout [VP8LToken], pixels: UnsafeBufferPointer<UInt32>, bits: Int) {
        guard bits > 0, let p = pixels.baseAddress else { return }
        var cache = [UInt32](repeating: 0, count: 1 << bits)
        let shift = UInt32(32 - bits)
        cache.withUnsafeMutableBufferPointer { cache in
            tokens.withUnsafeMutableBufferPointer { tokens in
                var position = 0
                for t in 0..<tokens.count {
                    let token = tokens[t]
                    if token.kind == VP8LToken.Kind.copy.rawValue {
                        for k in 0..<token.length {
                            let argb = p[position &+ k]
                            cache[VP8LColorCache.index(of: argb, shift: shift)] = argb
                        }
                    } else {
                        let argb = token.value
                        let key = VP8LColorCache.index(of: argb, shift: shift)
                        if cache[key] == argb {
                            tokens[t] = .cacheIndex(key)
                        } else {
                            cache[key] = argb
                        }
                    }
                    position &+= token.length
                }
            }
        }
    }
}
