import CodecCore

/// The fcTL chunk (APNG 1.0 §"fcTL": frame control).
struct APNGFrameControl {
    let sequenceNumber: UInt32
    let rect: FrameRect
    let delayNumerator: Int
    let delayDenominator: Int
    let disposal: Disposal
    let blend: Blend

    /// Parses the 26-byte payload and checks the rectangle against the canvas; nil when the
    /// chunk is malformed, which breaks the animation.
    init?(_ p: ArraySlice<UInt8>, canvasWidth: Int, canvasHeight: Int) {
        guard p.count == 26 else { return nil }
        var r = ByteReader(Array(p))
        guard let seq = r.readU32(bigEndian: true), let w = r.readU32(bigEndian: true),
              let h = r.readU32(bigEndian: true), let x = r.readU32(bigEndian: true),
              let y = r.readU32(bigEndian: true), let num = r.readU16(bigEndian: true),
              let den = r.readU16(bigEndian: true), let dispose = r.readU8(), let blendOp = r.readU8()
        else { return nil }
        guard w > 0, h > 0, Int(x) + Int(w) <= canvasWidth, Int(y) + Int(h) <= canvasHeight,
              dispose <= 2, blendOp <= 1 else { return nil }
        sequenceNumber = seq
        rect = FrameRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
        delayNumerator = Int(num)
        delayDenominator = Int(den)
        disposal = [Disposal.none, .background, .previous][Int(dispose)]
        blend = blendOp == 0 ? .source : .over
    }

    /// delay_num / delay_den seconds; a denominator of 0 means 1/100 s.
    var delaySeconds: Double {
        Double(delayNumerator) / Double(delayDenominator == 0 ? 100 : delayDenominator)
    }

    var frameProperties: FrameProperties {
        FrameProperties(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                        unclampedDuration: delaySeconds, disposal: disposal, blend: blend)
    }
}
