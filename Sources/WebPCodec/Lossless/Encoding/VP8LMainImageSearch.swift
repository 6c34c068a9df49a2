import CodecCore

/// The main image (RFC 9649 5.2.2 and 3.7.2.2): LZ77, the colour cache, the entropy image, the
/// codes and the data. Below effort 9 one parse is refined: the greedy one with the estimated
/// best cache size, then the cost-driven parses. At effort 9 several starts are weighed:
///
/// - seeds: the greedy parse and the run parse (``VP8LBackwardReferences/runTokens(_:width:)``),
///   both as they are and as the first model of the cost-driven parses (a model priced by
///   the greedy parse's many far copies can keep the parses away from cheaper cache hits);
/// - cache sizes: the estimated best and `settings.cacheSizesTried`.
///
/// Every start is parsed once and ranked by the estimated bits of its symbols in one group;
/// the best ``VP8LMainImageSearch/keptCandidates`` get the remaining parses, their entropy
/// images and an exact bit count, and the smallest is written (its entropy image built again
/// from finer bins when `settings.finalBinsPerChannel` asks and that is smaller).
enum VP8LMainImageSearch {
    static let keptCandidates = 3

    struct Candidate {
        var tokens: [VP8LToken]
        var cacheBits: Int
        var parsesLeft: Int
        var estimate = 0.0
    }

    static func write(_ pixels: [UInt32], width: Int, _ settings: VP8LEncoderSettings, to writer: inout LSBBitWriter) {
        var references = VP8LBackwardReferences(maxChainSteps: settings.chainSteps, minLength: settings.minCopyLength,
                                                lazy: settings.lazyMatching)
        references.searchesNeighbours = settings.searchesNeighbours
        let height = pixels.count / max(width, 1)
        pixels.withUnsafeBufferPointer { p in
            let matches = settings.optimalParses > 0 ? references.matches(p, width: width) : nil
            func parse(_ candidate: inout Candidate) {
                guard let matches, candidate.parsesLeft > 0 else { return }
                var histogram = VP8LHistogram(cacheBits: candidate.cacheBits)
                for token in candidate.tokens { histogram.add(token) }
                candidate.tokens = references.optimalTokens(p, width: width, matches: matches,
                                                            model: VP8LCostModel(histogram),
                                                            cacheBits: candidate.cacheBits)
                VP8LColorCacheSelection.apply(&candidate.tokens, pixels: p, bits: candidate.cacheBits)
                candidate.parsesLeft -= 1
            }
            func entropyImage(_ c: Candidate, bins: Int) -> VP8LImageWriter.EntropyImage? {
                settings.entropyImageBits == 0 ? nil
                    : VP8LEntropyImageBuilder.build(c.tokens, width: width, height: height, bits: settings.entropyImageBits,
                                                    cacheBits: c.cacheBits, maxGroups: settings.maxGroups,
                                                    binsPerChannel: bins)
            }

            let greedy = matches.map { references.greedyTokens(p, width: width, matches: $0) }
                ?? references.tokens(p, width: width)
            let estimated = VP8LColorCacheSelection.bestBits(greedy, pixels: p, maxBits: settings.maxCacheBits)
            var sizes = [estimated]
            for bits in settings.cacheSizesTried where bits <= settings.maxCacheBits && !sizes.contains(bits) {
                sizes.append(bits)
            }
            let seeds = settings.triesRunParse ? [greedy, references.runTokens(p, width: width)] : [greedy]
            var candidates: [Candidate] = []
            for (s, seed) in seeds.enumerated() {
                for cacheBits in sizes {
                    var c = Candidate(tokens: seed, cacheBits: cacheBits, parsesLeft: settings.optimalParses)
                    VP8LColorCacheSelection.apply(&c.tokens, pixels: p, bits: cacheBits)
                    if s > 0 { candidates.append(Candidate(tokens: c.tokens, cacheBits: cacheBits, parsesLeft: 0)) }
                    parse(&c)
                    candidates.append(c)
                }
            }
            if candidates.count > keptCandidates {
                for i in candidates.indices {
                    var histogram = VP8LHistogram(cacheBits: candidates[i].cacheBits)
                    for token in candidates[i].tokens { histogram.add(token) }
                    candidates[i].estimate = histogram.estimatedBits()
                }
                candidates.sort { $0.estimate < $1.estimate }
                candidates.removeLast(candidates.count - keptCandidates)
            }
            let refinesImage = settings.finalBinsPerChannel > VP8LEntropyImageBuilder.binsPerChannel
                && settings.entropyImageBits > 0
            let counts = candidates.count > 1 || refinesImage
            var best: (bits: Int, candidate: Candidate, entropyImage: VP8LImageWriter.EntropyImage?)?
            for var c in candidates {
                while c.parsesLeft > 0 { parse(&c) }
                let image = entropyImage(c, bins: VP8LEntropyImageBuilder.binsPerChannel)
                let bits = !counts ? 0
                    : VP8LImageWriter.bitCount(c.tokens, width: width, cacheBits: c.cacheBits, isMain: true,
                                               entropyImage: image)
                if best.map({ bits < $0.bits }) ?? true { best = (bits, c, image) }
            }
            guard var best else { return }
            if refinesImage {
                let finer = entropyImage(best.candidate, bins: settings.finalBinsPerChannel)
                let bits = VP8LImageWriter.bitCount(best.candidate.tokens, width: width, cacheBits: best.candidate.cacheBits,
                                                    isMain: true, entropyImage: finer)
                if bits < best.bits { best.entropyImage = finer }
            }
            VP8LImageWriter.write(best.candidate.tokens, width: width, cacheBits: best.candidate.cacheBits, isMain: true,
                                  entropyImage: best.entropyImage, to: &writer)
        }
    }
}
