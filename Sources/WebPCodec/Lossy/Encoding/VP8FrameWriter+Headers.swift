extension VP8FrameWriter {
    /// The frame header of RFC 6386 19.2: the segmentation (9.3: absolute quantizer indices
    /// and filter levels per segment, the map's tree probabilities), the normal loop filter, the
    /// base quantizer index without deltas, the coefficient probability updates, the skip flag.
    func writeFrameHeader(_ e: inout VP8BoolEncoder, sharpness: Int, treeProbabilities: [Int], log2Parts: Int,
                          probabilities: (values: [UInt8], updates: [Bool]), skipProbability: Int?) {
        e.writeLiteral(0, bits: 1)  // color_space
        e.writeLiteral(0, bits: 1)  // clamping_type
        e.writeLiteral(segments.isSegmented ? 1 : 0, bits: 1)  // segmentation_enabled
        if segments.isSegmented { writeSegmentation(&e, treeProbabilities: treeProbabilities) }
        e.writeLiteral(0, bits: 1)  // filter_type: normal
        e.writeLiteral(segments.filterLevels[0], bits: 6)
        e.writeLiteral(sharpness, bits: 3)
        e.writeLiteral(0, bits: 1)  // loop_filter_adj_enable
        e.writeLiteral(log2Parts, bits: 2)
        e.writeLiteral(segments.quantizerIndices[0], bits: 7)
        for d in segments.deltas {
            e.writeLiteral(d != 0 ? 1 : 0, bits: 1)
            if d != 0 { e.writeSignedLiteral(d, bits: 4) }
        }
        e.writeLiteral(0, bits: 1)  // refresh_entropy_probs
        let updateProbabilities = VP8Tables.coefficientUpdateProbabilities
        let (values, updates) = probabilities
        for i in 0..<updates.count {
            e.write(updates[i], Int(updateProbabilities[i]))
            if updates[i] { e.writeLiteral(Int(values[i]), bits: 8) }
        }
        if let skipProbability {
            e.writeLiteral(1, bits: 1)
            e.writeLiteral(skipProbability, bits: 8)
        } else {
            e.writeLiteral(0, bits: 1)
        }
    }

    /// RFC 6386 9.3 and 19.2 `update_segmentation`: the map and the feature data are updated,
    /// the values are absolute (`segment_feature_mode` 1); segments past the plan's get 0 (no
    /// macroblock uses them); a tree probability of 255 is not sent (the decoder's default).
    func writeSegmentation(_ e: inout VP8BoolEncoder, treeProbabilities: [Int]) {
        e.writeLiteral(1, bits: 1)  // update_mb_segmentation_map
        e.writeLiteral(1, bits: 1)  // update_segment_feature_data
        e.writeLiteral(1, bits: 1)  // segment_feature_mode: absolute
        for values in [(segments.quantizerIndices, 7), (segments.filterLevels, 6)] {
            for s in 0..<4 {
                let present = s < values.0.count
                e.writeLiteral(present ? 1 : 0, bits: 1)
                if present { e.writeSignedLiteral(values.0[s], bits: values.1) }
            }
        }
        for p in treeProbabilities {
            e.writeLiteral(p != 255 ? 1 : 0, bits: 1)
            if p != 255 { e.writeLiteral(p, bits: 8) }
        }
    }

    /// The probabilities of the segment-id tree (RFC 6386 10, 19.2 `segment_prob`) from the
    /// map: the first branch splits segments 0–1 from 2–3, the others 0 from 1 and 2 from 3;
    /// each is the share of zeros in 1…255, or 255 for a branch never taken.
    func segmentTreeProbabilities() -> [Int] {
        var counts = [0, 0, 0, 0]
        for s in segments.map { counts[Int(s)] += 1 }
        func probability(_ zeros: Int, _ ones: Int) -> Int {
            zeros + ones == 0 ? 255 : min(255, max(1, (zeros * 256 + (zeros + ones) / 2) / (zeros + ones)))
        }
        return [probability(counts[0] + counts[1], counts[2] + counts[3]),
                probability(counts[0], counts[1]), probability(counts[2], counts[3])]
    }

    /// RFC 6386 19.3 for every macroblock: the segment id (with the map's tree), skip flag, luma mode (sub-block modes with their
    /// contexts, 11.3), chroma mode.
    func writeMacroblockHeaders(_ e: inout VP8BoolEncoder, treeProbabilities: [Int], skipProbability: Int?) {
        var modes = [UInt8](repeating: 0, count: mbWidth * 4 + 4)
        let probs = VP8Tables.keyFrameSubblockModeProbabilities
        for mbY in 0..<mbHeight {
            for k in 0..<4 { modes[mbWidth * 4 + k] = 0 }
            for mbX in 0..<mbWidth {
                let base = (mbY * mbWidth + mbX) * VP8MacroblockCoder.infoSize
                let flags = info[base]
                if segments.isSegmented {
                    let s = Int(segments.map[mbY * mbWidth + mbX])
                    e.write(s >= 2, treeProbabilities[0])
                    e.write(s & 1 != 0, treeProbabilities[s >= 2 ? 2 : 1])
                }
                if let skipProbability { e.write(flags & 2 != 0, skipProbability) }
                let isSubblock = flags & 1 != 0
                e.write(!isSubblock, 145)
                if !isSubblock {
                    let mode = Int(info[base + 1])
                    for (p, bit) in VP8ModeCost.lumaPaths[mode] { e.write(bit, p) }
                    for k in 0..<4 { modes[mbX * 4 + k] = UInt8(mode); modes[mbWidth * 4 + k] = UInt8(mode) }
                } else {
                    for y in 0..<4 {
                        for x in 0..<4 {
                            let mode = Int(info[base + 3 + y * 4 + x])
                            let above = Int(modes[mbX * 4 + x]), left = Int(modes[mbWidth * 4 + y])
                            let p = (above * 10 + left) * 9
                            for (i, bit) in VP8ModeCost.subblockPaths[mode] { e.write(bit, Int(probs[p + i])) }
                            modes[mbX * 4 + x] = UInt8(mode)
                            modes[mbWidth * 4 + y] = UInt8(mode)
                        }
                    }
                }
                for (p, bit) in VP8ModeCost.chromaPaths[Int(info[base + 2])] { e.write(bit, p) }
            }
        }
    }
}
