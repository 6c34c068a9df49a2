import CodecCore

/// The RIFF container of WebP (RFC 9649 section 2) parsed as its bytes arrive: a chunk header is
/// consumed only once its 8 bytes are there; payloads are skipped by position, so bytes are
/// never parsed twice. Simple files (one VP8L or VP8 chunk), extended files (VP8X, then ICCP,
/// ANIM, ANMF frames, the image, EXIF, XMP, unknown chunks skipped) and their sizes are checked
/// as libwebp checks them (SPEC-NOTES.md, WebP container): `dwebp` for stills, the demuxer that
/// `WebPAnimDecoder` uses for animations.
package struct WebPContainerParser: FrameContainer {
    let limits: Limits
    /// The next chunk header's position.
    private(set) var position = 12
    /// 8 + the RIFF size: where the chunks end; 0 until the RIFF header is read.
    private(set) var riffEnd = 0
    private(set) var extended: WebPExtendedHeader?
    private(set) var animation: WebPAnimationHeader?
    /// Frames whose image chunk header (and bitstream header) has been read.
    private(set) var frames: [WebPFrameInfo] = []
    private(set) var icc: Range<Int>?
    private(set) var exif: Range<Int>?
    private(set) var xmp: Range<Int>?
    /// Their payloads, each copied once it has arrived whole (WebPContainerParser+Facts.swift).
    var iccPayload: [UInt8]?, exifPayload: [UInt8]?, xmpPayload: [UInt8]?
    /// Every chunk up to the RIFF end has been read (their payloads may still be arriving when
    /// ``available`` is short of ``riffEnd``).
    private(set) var chunksEnded = false
    /// Bytes held at the last parse.
    private(set) var available = 0
    /// Bumped whenever something visible changed.
    package internal(set) var revision = 0

    /// The ANMF chunk being read: its payload's end, and its header's fields (nil once its image
    /// has been read). As libwebp's demuxer (StoreFrame), a frame's chunks are read from the ANMF
    /// header on until one that is not its ALPH or image; the chunks after it, even inside the
    /// ANMF's size, are read as top-level chunks.
    private var frameEnd: Int?
    private var frameHeader: (x: Int, y: Int, duration: Int, dispose: Bool, blend: Bool)?
    private var frameHasImage = false
    /// The payload of the ALPH chunk seen in the current frame (or before a still's VP8 chunk).
    private var alphaChunk: Range<Int>?
    private var sawAlpha: Bool { alphaChunk != nil }
    /// An image chunk whose bitstream header has not arrived yet.
    private var pendingImage: (kind: WebPBitstream.Kind, payload: Range<Int>)?
    private var sawStill = false

    init(limits: Limits) {
        self.limits = limits
    }

    /// Everything has arrived up to the RIFF end and every chunk is read.
    package var ended: Bool { chunksEnded && available >= riffEnd }

    var isAnimated: Bool { extended?.isAnimated == true }

    /// Reads the chunk headers that have arrived, and the metadata payloads that have.
    package mutating func parse(_ input: InputBuffer) throws(DecodingError) {
        defer { readMetadata(input) }
        available = input.count
        if riffEnd == 0 {
            guard try readRIFFHeader(input) else { return }
        }
        while !chunksEnded {
            if let pendingImage {
                guard try readBitstreamHeader(pendingImage, input) else { return }
                continue
            }
            if frameEnd != nil && riffEnd - position < 8 {
                try finishFrame()
                continue
            }
            guard riffEnd - position >= 8 else {
                if frameEnd == nil && !sawStill && frames.isEmpty && !isAnimated {
                    throw .invalidData("WebP file has no image chunk")
                }
                if isAnimated && frames.isEmpty { throw .invalidData("WebP animation has no frame") }
                // The demuxer wants more data for 1-7 stray bytes before the RIFF end, and so
                // refuses the file; dwebp ignores them in a still.
                if isAnimated && position < riffEnd { throw .invalidData("WebP animation ends inside a chunk header") }
                chunksEnded = true
                revision += 1
                return
            }
            guard let fourCC = input.u32LE(at: position), let size = input.u32LE(at: position + 4) else { return }
            guard try readChunk(fourCC, size: Int(size), input) else { return }
        }
    }

    /// "RIFF", the RIFF size, "WEBP" (RFC 9649 section 2.5), checked as libwebp's ParseRIFF does.
    private mutating func readRIFFHeader(_ input: InputBuffer) throws(DecodingError) -> Bool {
        // Short final input leaves the properties unknown: the source reports unexpectedEOF.
        guard let riff = input.u32LE(at: 0), let size = input.u32LE(at: 4), let webp = input.u32LE(at: 8) else {
            return false
        }
        guard riff == Self.tag("RIFF"), webp == Self.tag("WEBP") else { throw .invalidData("not a RIFF WEBP file") }
        // "WEBP" and at least one chunk header; at most MAX_CHUNK_PAYLOAD.
        guard size >= 12 else { throw .invalidData("RIFF size is smaller than one chunk") }
        guard size <= Self.maxChunkPayload else { throw .invalidData("RIFF size is too large") }
        riffEnd = 8 + Int(size)
        revision += 1
        return true
    }

    /// One chunk at ``position``, whose header has arrived; false when it needs payload bytes
    /// that have not arrived (the chunk is read again, whole, later).
    private mutating func readChunk(_ fourCC: UInt32, size: Int, _ input: InputBuffer) throws(DecodingError) -> Bool {
        let start = position + 8
        // libwebp's SizeIsInvalid: the padded payload must end by the RIFF end.
        let padded = size + (size & 1)
        // dwebp checks a still's chunk without its pad byte; the demuxer (animations), with it.
        guard size <= Self.maxChunkPayload, (isAnimated ? padded : size) <= riffEnd - start else {
            // dwebp stops reading at a still's image: a bad chunk after it is never seen.
            if frameEnd == nil && !isAnimated && sawStill && pendingImage == nil {
                chunksEnded = true
                revision += 1
                return true
            }
            throw .invalidData("WebP chunk passes the end of the RIFF data")
        }
        let payload = start..<(start + size)
        let next = start + size + (size & 1)
        if frameEnd != nil {
            if try readFrameChunk(fourCC, payload, input) { position = next }
            return true
        }
        let first = position == 12
        switch fourCC {
        case Self.tag("VP8X") where first:
            guard try readExtendedHeader(payload, input) else { return false }
        case Self.tag("ALPH") where isAnimated:
            throw .invalidData("WebP animation has an image chunk outside ANMF")
        case Self.tag("VP8L"), Self.tag("VP8 "):
            guard !isAnimated else { throw .invalidData("WebP animation has an image chunk outside ANMF") }
            guard !sawStill else { break }
            sawStill = true
            pendingImage = (fourCC == Self.tag("VP8L") ? .lossless : .lossy, payload)
            if fourCC == Self.tag("VP8L") && sawAlpha { throw .invalidData("ALPH chunk before a VP8L chunk") }
        case Self.tag("ALPH") where extended != nil && !sawStill:
            alphaChunk = payload
        case Self.tag("ANIM") where isAnimated:
            guard let head = input.withBytes(payload, { $0.count >= 6 ? Array($0.prefix(6)) : nil }) else {
                if size < 6 { throw .invalidData("ANIM chunk is shorter than 6 bytes") }
                return false
            }
            animation = WebPAnimationHeader(backgroundColor: Self.le32(head, 0), loopCount: Int(head[4]) | Int(head[5]) << 8)
            revision += 1
        case Self.tag("ANMF") where isAnimated:
            guard animation != nil else { throw .invalidData("ANMF chunk before the ANIM chunk") }
            guard size >= 16 else { throw .invalidData("ANMF chunk is shorter than 16 bytes") }
            guard let head = input.withBytes(start..<(start + 16), { $0.count == 16 ? Array($0) : nil }) else { return false }
            try limits.checkFrame(after: frames.count, canvasWidth: extended?.canvasWidth ?? 0,
                                  canvasHeight: extended?.canvasHeight ?? 0)
            // libwebp's MAX_IMAGE_AREA on the ANMF's own size (the frame's size is its bitstream's).
            guard (Self.le24(head, 6) + 1) * (Self.le24(head, 9) + 1) < 1 << 32 else {
                throw .invalidData("ANMF frame is too large")
            }
            frameHeader = (2 * Self.le24(head, 0), 2 * Self.le24(head, 3), Self.le24(head, 12),
                           head[15] & 1 != 0, head[15] & 2 == 0)
            frameEnd = start + padded
            frameHasImage = false
            alphaChunk = nil
            position = start + 16
            return true
        case Self.tag("ICCP") where icc == nil && extended != nil:
            icc = payload
        case Self.tag("EXIF") where exif == nil && extended != nil:
            exif = payload
        case Self.tag("XMP ") where xmp == nil && extended != nil:
            xmp = payload
        default:
            if first { try checkFirstChunk(fourCC) }
        }
        position = next
        return true
    }

    /// A simple file starts with its image chunk, an extended one with VP8X.
    private func checkFirstChunk(_ fourCC: UInt32) throws(DecodingError) {
        throw .invalidData("WebP file starts with neither VP8, VP8L nor VP8X")
    }

    /// The VP8X payload: flags, reserved bits, canvas width and height minus one (24 bits each).
    private mutating func readExtendedHeader(_ payload: Range<Int>, _ input: InputBuffer) throws(DecodingError) -> Bool {
        guard payload.count >= 10 else { throw .invalidData("VP8X chunk is shorter than 10 bytes") }
        guard let head = input.withBytes(payload.lowerBound..<(payload.lowerBound + 10), { $0.count == 10 ? Array($0) : nil })
        else { return false }
        let header = WebPExtendedHeader(flags: head[0], canvasWidth: Self.le24(head, 4) + 1,
                                        canvasHeight: Self.le24(head, 7) + 1)
        if header.isAnimated {
            guard header.flags & ~WebPExtendedHeader.validFlags == 0 else { throw .invalidData("VP8X has reserved flags set") }
        } else if payload.count != 10 {
            throw .invalidData("VP8X chunk size is not 10")
        }
        let (area, overflow) = header.canvasWidth.multipliedReportingOverflow(by: header.canvasHeight)
        guard !overflow, area < 1 << 32 else { throw .invalidData("VP8X canvas is too large") }
        if header.isAnimated {
            // The canvas every frame is composed on must fit the limits. Checked here, as the
            // header is read, so that the verdict does not depend on how the input was split
            // (a later bad chunk read in the same call would otherwise win when the file is whole).
            _ = try limits.checkedRasterBytes(width: header.canvasWidth, height: header.canvasHeight, bytesPerPixel: 4)
        }
        extended = header
        revision += 1
        return true
    }

    /// A chunk of an ANMF frame (RFC 9649 section 2.7.1.1 "Frame Data"): an optional ALPH, then
    /// VP8 or VP8L. Anything else (a second ALPH or image included) ends the frame without being
    /// consumed, as libwebp's StoreFrame does; returns whether the chunk was the frame's.
    private mutating func readFrameChunk(_ fourCC: UInt32, _ payload: Range<Int>, _ input: InputBuffer) throws(DecodingError) -> Bool {
        switch fourCC {
        case Self.tag("ALPH") where !sawAlpha:
            alphaChunk = payload
        case Self.tag("VP8L") where !frameHasImage:
            if sawAlpha { throw .invalidData("ALPH chunk before a VP8L chunk") }
            pendingImage = (.lossless, payload)
            frameHasImage = true
        case Self.tag("VP8 ") where !frameHasImage:
            pendingImage = (.lossy, payload)
            frameHasImage = true
        default:
            try finishFrame()
            return false
        }
        return true
    }

    /// Reads the bitstream header of the image chunk found last, once its bytes are there.
    private mutating func readBitstreamHeader(_ image: (kind: WebPBitstream.Kind, payload: Range<Int>),
                                              _ input: InputBuffer) throws(DecodingError) -> Bool {
        let needed = image.kind == .lossless ? 5 : 10
        guard image.payload.count >= needed else { throw .invalidData("WebP image chunk is shorter than its header") }
        guard var bitstream = try WebPHeaderReader.read(image.kind, payload: image.payload,
                                                        alphaChunk: alphaChunk, input) else { return false }
        if frameHeader != nil {
            // The demuxer hands WebPDecode the chunk with its pad byte (StoreFrame's chunk_size).
            bitstream.dataEnd = min(riffEnd, image.payload.upperBound + (image.payload.count & 1))
        }
        pendingImage = nil
        if let header = frameHeader {
            let p = FrameProperties(x: header.x, y: header.y, width: bitstream.width, height: bitstream.height,
                                    unclampedDuration: Double(header.duration) / 1000,
                                    disposal: header.dispose ? .background : .none, blend: header.blend ? .over : .source,
                                    hasAlpha: bitstream.hasAlpha)
            guard let canvas = extended, p.x + p.width <= canvas.canvasWidth, p.y + p.height <= canvas.canvasHeight else {
                throw .invalidData("ANMF frame lies outside the canvas")
            }
            frames.append(WebPFrameInfo(properties: p, bitstream: bitstream, durationMilliseconds: header.duration))
            frameHeader = nil
        } else {
            if let canvas = extended, canvas.canvasWidth != bitstream.width || canvas.canvasHeight != bitstream.height {
                throw .invalidData("VP8X canvas size differs from the image size")
            }
            let p = FrameProperties(x: 0, y: 0, width: bitstream.width, height: bitstream.height,
                                    unclampedDuration: 0, disposal: .none, blend: .source,
                                    hasAlpha: extended?.hasAlpha ?? bitstream.hasAlpha)
            frames.append(WebPFrameInfo(properties: p, bitstream: bitstream, durationMilliseconds: 0))
        }
        revision += 1
        return true
    }

    /// The end of a frame's chunks, as libwebp's demuxer sees it: chunks read past the ANMF's
    /// size are invalid; a frame with an ALPH chunk but no image is invalid; a frame with neither
    /// is dropped. Parsing goes on at top level from here.
    private mutating func finishFrame() throws(DecodingError) {
        if let end = frameEnd, position > end { throw .invalidData("ANMF frame's chunks pass the ANMF chunk") }
        if !frameHasImage && sawAlpha { throw .invalidData("ANMF chunk has alpha but no image") }
        frameEnd = nil
        frameHeader = nil
        alphaChunk = nil
    }

    /// libwebp's MAX_CHUNK_PAYLOAD: ~0U - CHUNK_HEADER_SIZE - 1.
    static let maxChunkPayload = Int(UInt32.max) - 8 - 1

    static func tag(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }
    static func le32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(le24(b, i)) | UInt32(b[i + 3]) << 24 }
}
