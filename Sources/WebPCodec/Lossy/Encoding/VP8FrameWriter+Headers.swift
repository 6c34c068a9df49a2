extension VP8FrameWriter {
    /// The frame header of RFC 6386 19.2: no segmentation, the normal loop filter, one base
    /// quantizer index without deltas, the coefficient probability updates, the skip flag.
    func writeFrameHeader(_ e: inout VP8BoolEncoder, settings: VP8Encoder.Settings, log2Parts: Int,
                          probabilities: (values: [UInt8], updates: [Bool]), skipProbability: Int?) {
        e.writeLiteral(0, bits: 1)  // color_space
        e.writeLiteral(0, bits: 1)  // clamping_type
        e.writeLiteral(0, bits: 1)  // segmentation_enabled
        e.writeLiteral(0, bits: 1)  // filter_type: normal
        e.writeLiteral(settings.filterLevel, bits: 6)
        e.writeLiteral(settings.sharpness, bits: 3)
        e.writeLiteral(0, bits: 1)  // loop_filter_adj_enable
        e.writeLiteral(log2Parts, bits: 2)
        e.writeLiteral(settings.quantizerIndex, bits: 7)
        for _ in 0..<5 { e.writeLiteral(0, bits: 1) }  // no quantizer deltas
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

    /// RFC 6386 19.3 for every macroblock: skip flag, luma mode (sub-block modes with their
    /// contexts, 11.3), chroma mode.
    func writeMacroblockHeaders(_ e: inout VP8BoolEncoder, skipProbability: Int?) {
        var modes = [UInt8](repeating: 0, count: mbWidth * 4 + 4)
        let probs = VP8Tables.keyFrameSubblockModeProbabilities
        for mbY in 0..<mbHeight {
            for k in 0..<4 { modes[mbWidth * 4 + k] = 0 }
            for mbX in 0..<mbWidth {
                let base = (mbY * mbWidth + mbX) * VP8MacroblockCoder.infoSize
                let flags = info[base]
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
