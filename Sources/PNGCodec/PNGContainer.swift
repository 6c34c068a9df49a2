import CZlib
import CodecCore

/// One image stream's place in the input: the frame's facts and the payload ranges of its
/// IDAT or fdAT chunks. A range may reach past the bytes that have arrived.
struct PNGFrameData {
    var properties: FrameProperties
    var segments: [Range<Int>] = []
    /// The chunk after the last data chunk has been seen: no more segments will come.
    var complete = false
}

/// The chunk layer of PNG and APNG (PNG 3rd edition §5, §13; APNG 1.0): a push parser that
/// consumes a chunk only when it is whole, except image data chunks, whose payload ranges are
/// handed to the frame decoders as soon as their header arrives.
///
/// Error policy, after libspng's: a bad signature, a malformed or misplaced critical chunk, a
/// critical chunk's CRC mismatch or an unknown critical chunk is an error; an ancillary chunk
/// with a bad CRC or a malformed payload is ignored. Animation chunks that break APNG's rules
/// make the file fall back to its static image, as browsers do (SPEC-NOTES.md, APNG).
package struct PNGContainer: FrameContainer {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private let options: DecodingOptions
    private(set) var header: PNGHeader?
    /// PLTE entries as RGB triples.
    private(set) var palette: [UInt8] = []
    /// The tRNS payload, when it is valid for the colour type.
    private(set) var transparency: [UInt8]?
    private(set) var metadata: PNGMetadata
    /// The IDAT image, once its first chunk has been seen.
    private(set) var defaultImage: PNGFrameData?
    /// Frames that have an fcTL, in order; the first is the default image when ``defaultIsAnimationFrame``.
    private var animationFrames: [PNGFrameData] = []
    private(set) var defaultIsAnimationFrame = false
    /// acTL's num_frames and num_plays.
    private(set) var animationControl: (frames: Int, plays: Int)?
    private var animationBroken = false
    private var animationDecided = false
    private var pendingControl: APNGFrameControl?
    private var nextSequenceNumber: UInt32 = 0
    private var seenPalette = false
    private var idatEnded = false
    /// IEND has been read.
    package private(set) var ended = false
    private var position = 0
    /// The start of the last image data chunk whose payload was registered.
    private var registeredDataChunk = -1
    /// Cleared once num_frames frames have an fcTL: later frames are not shown.
    private var acceptsFrames = true

    init(options: DecodingOptions) {
        self.options = options
        metadata = PNGMetadata(limits: options.limits, ignoresChecksums: options.ignoresChecksums)
    }

    /// Whether the file is an animation that is shown as one (acTL before IDAT, no broken rules).
    var isAnimated: Bool { animationDecided && animationControl != nil && !animationBroken }

    /// Whether the file declared an animation that broke a rule, so that its static image is
    /// shown: sticky, like the break.
    var showsStaticFallback: Bool { animationControl != nil && animationBroken }

    /// The frames as a browser shows them: the static image alone, or the animation's frames
    /// (a default image that is not part of the animation is not one of them).
    var frames: [PNGFrameData] { (0..<frameCount).compactMap(frame(at:)) }

    /// Counts the chunks consumed; facts derived from the chunks change only when it does.
    package private(set) var revision = 0

    /// The number of ``frames``, without building them.
    package var frameCount: Int {
        guard defaultImage != nil else { return 0 }
        return isAnimated ? animationFrames.count : 1
    }

    /// Frame `index` of ``frames``, without building the others.
    func frame(at index: Int) -> PNGFrameData? {
        guard index >= 0, index < frameCount, let defaultImage else { return nil }
        guard isAnimated else { return defaultImage }
        var frame = animationFrames[index]
        if index == 0 && defaultIsAnimationFrame {
            frame.segments = defaultImage.segments
            frame.complete = defaultImage.complete
        }
        return frame
    }

    /// Parses every whole chunk that has arrived.
    package mutating func parse(_ input: InputBuffer) throws(DecodingError) {
        if position == 0 {
            for (i, b) in Self.signature.enumerated() {
                guard let have = input.u8(at: i) else { return }
                guard have == b else { throw .invalidData("PNG signature does not match") }
            }
            position = 8
        }
        while !ended, let length32 = input.u32BE(at: position), let raw = input.u32BE(at: position + 4) {
            guard length32 <= 0x7FFF_FFFF else { throw .invalidData("chunk length exceeds 2^31-1") }
            let type = PNGChunkType(rawValue: raw), length = Int(length32)
            guard type.isValid else { throw .invalidData("chunk type is not four letters") }
            let payload = (position + 8)..<(position + 8 + length)
            if type == .IDAT || type == .fdAT {
                guard try beginData(type, payload, input) else { return }
            } else {
                endData()
            }
            guard input.has(length + 12, at: position) else { return }
            let crcOK = skipsCRC(type) || chunkCRC((position + 4)..<payload.upperBound, input)
                == input.u32BE(at: payload.upperBound)
            if type != .IDAT && type != .fdAT {
                if crcOK || !type.isCritical { try handle(type, payload, input, crcOK: crcOK) }
            }
            if !crcOK && type.isCritical { throw .invalidData("critical chunk CRC does not match") }
            position = payload.upperBound + 4
            revision += 1
        }
    }

    /// Registers an image data chunk's payload once its header (and fdAT's sequence number)
    /// has arrived. Returns false to wait for more bytes. Registers each chunk once.
    private mutating func beginData(_ type: PNGChunkType, _ payload: Range<Int>, _ input: InputBuffer) throws(DecodingError) -> Bool {
        if registeredDataChunk == position { return true }
        if type == .IDAT {
            try beginIDAT(payload)
        } else if payload.count < 4 {
            if animationControl != nil { animationBroken = true }
        } else {
            guard let seq = input.u32BE(at: payload.lowerBound) else { return false }
            beginFDAT(payload, sequence: seq)
        }
        registeredDataChunk = position
        return true
    }

    private mutating func beginIDAT(_ payload: Range<Int>) throws(DecodingError) {
        guard let header else { throw .invalidData("IDAT before IHDR") }
        guard !idatEnded else { throw .invalidData("IDAT chunks are not consecutive") }
        if header.colorType == .indexed && !seenPalette { throw .invalidData("indexed image has no PLTE before IDAT") }
        if defaultImage == nil {
            let full = FrameProperties(x: 0, y: 0, width: header.width, height: header.height,
                                       unclampedDuration: 0, disposal: .none, blend: .source)
            defaultImage = PNGFrameData(properties: full)
            decideAnimation(header)
        }
        defaultImage?.segments.append(payload)
    }

    /// At the first IDAT: the file animates only if acTL came before it; an fcTL before it
    /// makes the default image the first frame and must cover the canvas (APNG 1.0 §"IDAT").
    private mutating func decideAnimation(_ header: PNGHeader) {
        animationDecided = true
        guard animationControl != nil else { return }
        if let control = pendingControl {
            let full = FrameRect(x: 0, y: 0, width: header.width, height: header.height)
            guard control.rect == full else { animationBroken = true; return }
            defaultIsAnimationFrame = true
            animationFrames.append(PNGFrameData(properties: control.frameProperties))
        }
    }

    private mutating func beginFDAT(_ payload: Range<Int>, sequence: UInt32) {
        guard isAnimated, idatEnded else {
            if animationDecided && animationControl != nil || pendingControl != nil { animationBroken = true }
            return
        }
        guard takeSequenceNumber(sequence) else {
            animationBroken = true
            return
        }
        guard acceptsFrames else { return }
        guard let last = animationFrames.indices.last, !(defaultIsAnimationFrame && last == 0) else {
            animationBroken = true
            return
        }
        animationFrames[last].segments.append((payload.lowerBound + 4)..<payload.upperBound)
    }

    private mutating func takeSequenceNumber(_ seq: UInt32) -> Bool {
        guard seq == nextSequenceNumber else { return false }
        nextSequenceNumber &+= 1
        return true
    }

    /// Whether a chunk's CRC need not be computed: checksums ignored; IDAT checked by the
    /// source's parser already (``DecodingOptions/imageDataCRCsChecked``); fdAT, an ancillary
    /// chunk whose payload is taken when its header arrives, so that its CRC decides nothing.
    private func skipsCRC(_ type: PNGChunkType) -> Bool {
        options.ignoresChecksums || type == .fdAT || (type == .IDAT && options.imageDataCRCsChecked)
    }

    /// The CRC-32 of a chunk's type and data (§5.3), over the input segments they lie in.
    private func chunkCRC(_ range: Range<Int>, _ input: InputBuffer) -> UInt32 {
        var crc: UInt = 0
        input.forEachRun(range) { crc = crc32(crc, $0.baseAddress, UInt32($0.count)) }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// A chunk other than image data has begun: the IDAT run, if any, is over.
    private mutating func endData() {
        if defaultImage != nil && !idatEnded {
            idatEnded = true
            defaultImage?.complete = true
        }
    }

    private mutating func handle(_ type: PNGChunkType, _ payload: Range<Int>, _ input: InputBuffer, crcOK: Bool) throws(DecodingError) {
        let bytes = input.copy(payload)[...]
        if header == nil {
            guard type == .IHDR else { throw .invalidData("first chunk is not IHDR") }
            header = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try PNGHeader(p) }
            return
        }
        guard let header else { return }
        guard crcOK else { return }
        switch type {
        case .IHDR: throw .invalidData("IHDR appears twice")
        case .PLTE: try readPalette(bytes, header)
        case .IEND: try finish()
        case .tRNS: readTransparency(bytes, header)
        case .acTL: readAnimationControl(bytes)
        case .fcTL: try readFrameControl(bytes, header)
        default:
            if !metadata.read(type, bytes, header: header, beforeIDAT: defaultImage == nil) && type.isCritical {
                throw .unsupported("unknown critical chunk")
            }
        }
    }

    /// PLTE (§11.2.2): 1–256 RGB entries, before IDAT; not allowed for greyscale types.
    private mutating func readPalette(_ bytes: ArraySlice<UInt8>, _ header: PNGHeader) throws(DecodingError) {
        guard !seenPalette else { throw .invalidData("PLTE appears twice") }
        guard defaultImage == nil else { throw .invalidData("PLTE after IDAT") }
        guard header.colorType != .greyscale && header.colorType != .greyscaleAlpha else {
            throw .invalidData("PLTE in a greyscale image")
        }
        guard bytes.count % 3 == 0, (1...256).contains(bytes.count / 3) else { throw .invalidData("PLTE length is not 3 to 768 by 3") }
        if header.colorType == .indexed && bytes.count / 3 > 1 << header.bitDepth {
            throw .invalidData("PLTE has more entries than the bit depth can index")
        }
        seenPalette = true
        palette = Array(bytes)
    }

    /// tRNS (§11.3.2.1): ignored when misplaced or malformed.
    private mutating func readTransparency(_ bytes: ArraySlice<UInt8>, _ header: PNGHeader) {
        guard defaultImage == nil, transparency == nil else { return }
        switch header.colorType {
        case .greyscale: guard bytes.count == 2 else { return }
        case .truecolor: guard bytes.count == 6 else { return }
        case .indexed: guard seenPalette, bytes.count <= palette.count / 3 else { return }
        case .greyscaleAlpha, .truecolorAlpha: return
        }
        transparency = Array(bytes)
    }

    /// acTL (APNG 1.0): must come before IDAT, once, with num_frames > 0.
    private mutating func readAnimationControl(_ bytes: ArraySlice<UInt8>) {
        guard defaultImage == nil else { return }
        var r = ByteReader(Array(bytes))
        guard animationControl == nil, bytes.count == 8, let frames = r.readU32(bigEndian: true),
              let plays = r.readU32(bigEndian: true), frames > 0, frames <= 0x8000_0000 else {
            animationBroken = true
            return
        }
        animationControl = (Int(frames), Int(plays))
    }

    /// fcTL (APNG 1.0): before IDAT it describes the default image; after it, a new frame.
    private mutating func readFrameControl(_ bytes: ArraySlice<UInt8>, _ header: PNGHeader) throws(DecodingError) {
        guard !animationBroken else { return }
        guard let control = APNGFrameControl(bytes, canvasWidth: header.width, canvasHeight: header.height),
              takeSequenceNumber(control.sequenceNumber) else {
            animationBroken = true
            return
        }
        if defaultImage == nil {
            if pendingControl != nil { animationBroken = true }
            pendingControl = control
            return
        }
        guard isAnimated else { return }
        if let last = animationFrames.indices.last {
            if !(defaultIsAnimationFrame && last == 0) && animationFrames[last].segments.isEmpty {
                animationBroken = true
                return
            }
            animationFrames[last].complete = true
        }
        guard let declared = animationControl?.frames, animationFrames.count < declared else {
            acceptsFrames = false
            return
        }
        try options.limits.checkFrame(after: animationFrames.count, canvasWidth: header.width, canvasHeight: header.height)
        animationFrames.append(PNGFrameData(properties: control.frameProperties))
    }

    /// IEND (§11.2.5): the image data must have been seen; every frame is now complete. An
    /// animation without frames falls back to the static image.
    private mutating func finish() throws(DecodingError) {
        guard defaultImage != nil else { throw .invalidData("no IDAT before IEND") }
        if animationFrames.isEmpty { animationBroken = true }
        if let last = animationFrames.indices.last {
            if !(defaultIsAnimationFrame && last == 0) && animationFrames[last].segments.isEmpty {
                animationBroken = true
            }
            animationFrames[last].complete = true
        }
        ended = true
    }
}

extension PNGContainer {
    /// The header's facts, the loop count of an animation, and the metadata read so far.
    package func makeProperties() -> ImageProperties? {
        guard let h = header else { return nil }
        var p = ImageProperties(width: h.width, height: h.height, bitDepth: h.bitDepth, hasAlpha: hasAlpha,
                                isInterlaced: h.interlaced)
        if isAnimated, let plays = animationControl?.plays { p.loopCount = plays }
        p.showsStaticFallback = showsStaticFallback
        metadata.resolve(into: &p)
        return p
    }

    /// Every frame's pixels share the header's colour type and the tRNS chunk, which may come
    /// after an fcTL: alpha is the image's, read when asked.
    package func frameProperties(at index: Int) -> FrameProperties? {
        guard var p = frame(at: index)?.properties else { return nil }
        p.hasAlpha = hasAlpha
        return p
    }

    /// A colour type with alpha, or a tRNS chunk (§11.3.2.1).
    private var hasAlpha: Bool {
        guard let h = header else { return false }
        return h.colorType == .greyscaleAlpha || h.colorType == .truecolorAlpha || transparency != nil
    }

    package func isFrameComplete(at index: Int) -> Bool { frame(at: index)?.complete == true }

    /// An APNG's frames are composed on the full image.
    package var canvas: CanvasSpec? {
        guard isAnimated, let h = header else { return nil }
        return CanvasSpec(width: h.width, height: h.height)
    }
}
