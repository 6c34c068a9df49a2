import CodecCore

/// One image of the file (GIF89a §20–22) and what applies to it: one frame.
struct GIFFrameData {
    /// The rectangle clipped to the logical screen, the delay, the disposal and the blend.
    var properties: FrameProperties
    /// The rectangle as the Image Descriptor declares it; rows wrap at its width.
    var declared: FrameRect
    var interlaced: Bool
    /// The bytes of the colour table that applies: the local one, else the global one.
    var colorTable: Range<Int>?
    var transparentIndex: Int?
    /// The LZW Minimum Code Size (§22), once its byte has arrived.
    var minimumCodeSize: Int?
    /// The payloads of the image's data sub-blocks; the last may reach past the bytes that
    /// have arrived.
    var segments: [Range<Int>] = []
    /// The Block Terminator after the data has been read: no more segments will come.
    var complete = false
}

/// The block layer of GIF87a and GIF89a (GIF89a §15–27): a push parser that consumes a block
/// only when it is whole, except image data, whose sub-block payloads are handed to the frame
/// decoders as ranges as soon as each size byte arrives (as PNG hands over IDAT payloads).
///
/// Error policy, after browsers and giflib: a bad signature, a zero-sized logical screen or a
/// file without images is invalid; a logical screen past ``Limits`` or more images than
/// ``Limits/maxFrames`` exceed the limits; these errors are sticky. A byte that starts no block
/// where a block should start ends the file as the Trailer would (Chromium and Firefox "proceed
/// as if the file were correctly terminated"); malformed or unknown extensions are skipped.
/// Errors in an image's LZW data belong to that frame (``GIFFrameDecoder``).
package struct GIFContainer: FrameContainer {
    /// Where the parser stands; each case is the unit it waits for.
    enum State {
        /// §17 Header, §18 Logical Screen Descriptor and §19 Global Color Table, as one unit.
        case header
        /// Between blocks: an Extension Introducer (0x21), Image Separator (0x2C) or Trailer (0x3B).
        case block
        /// The data sub-blocks of an extension (§15 "Data Sub-blocks"), one whole sub-block at a time.
        case extensionData(GIFExtensionReader)
        /// The LZW Minimum Code Size byte after an Image Descriptor and its Local Color Table (§22).
        case codeSize
        /// The image's data sub-blocks, up to the Block Terminator (§16).
        case imageData
        /// The Trailer (§27) was read, or a byte that starts no block.
        case ended
    }

    private let options: DecodingOptions
    private(set) var screen: GIFScreenDescriptor?
    private(set) var globalColorTable: Range<Int>?
    /// The Global Color Table's entry at the Background Color Index, as RGB (§18), if it has one.
    private(set) var backgroundColor: [Int]?
    private(set) var frames: [GIFFrameData] = []
    private(set) var metadata: GIFMetadata
    /// The Graphic Control Extension waiting for the next image (the last one read wins, as in
    /// Chromium and Pillow).
    private var pendingControl: GIFGraphicControl?
    private var state = State.header
    private var position = 0
    /// Whether an image so far has a transparent index or leaves part of the screen uncovered.
    private(set) var hasTransparency = false
    /// Counts the changes to what ``GIFDecoder/properties`` reports (header, images, extensions).
    package private(set) var revision = 0

    init(options: DecodingOptions) {
        self.options = options
        metadata = GIFMetadata(limits: options.limits)
    }

    /// The Trailer has been read.
    package var ended: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Parses every whole block that has arrived.
    package mutating func parse(_ input: InputBuffer) throws(DecodingError) {
        while true {
            switch state {
            case .header:
                guard try readHeader(input) else { return }
            case .block:
                guard let introducer = input.u8(at: position) else { return }
                switch introducer {
                case 0x21:
                    guard let label = input.u8(at: position + 1) else { return }
                    state = .extensionData(GIFExtensionReader(label: label))
                    position += 2
                case 0x2C:
                    guard try readImageDescriptor(input) else { return }
                case 0x3B:
                    position += 1
                    try end()
                default:
                    try end()
                }
            case .extensionData(var reader):
                guard let size = input.u8(at: position).map(Int.init), input.has(size + 1, at: position) else { return }
                state = .block   // drops the state's copy, so the reader's payload grows in place
                if size == 0 {
                    reader.finish(&metadata, control: &pendingControl, beforeFirstImage: frames.isEmpty)
                    revision += 1
                } else {
                    input.withBytes((position + 1)..<(position + 1 + size)) { reader.read($0, &metadata) }
                    state = .extensionData(reader)
                }
                position += 1 + size
            case .codeSize:
                guard let size = input.u8(at: position) else { return }
                frames[frames.count - 1].minimumCodeSize = Int(size)
                position += 1
                state = .imageData
            case .imageData:
                guard position < input.count else { return }
                if readDataSubBlocks(input) {
                    frames[frames.count - 1].complete = true
                    state = .block
                }
            case .ended:
                return
            }
        }
    }

    /// Records the image's data sub-blocks (§15) whose size bytes have arrived, a contiguous
    /// run of the input at a time, up to the Block Terminator; whether it was reached (then
    /// `position` is past it).
    private mutating func readDataSubBlocks(_ input: InputBuffer) -> Bool {
        var segments = frames[frames.count - 1].segments
        frames[frames.count - 1].segments = []
        defer { frames[frames.count - 1].segments = segments }
        while position < input.count {
            let start = position
            let (end, terminated) = input.withContiguousRun(from: start, to: input.count) { run -> (Int, Bool) in
                var offset = 0
                while offset < run.count {
                    // Encoders fill sub-blocks to 255 bytes. Reading one size after another is a
                    // chain of dependent loads, each a cache miss when the data is cold (one
                    // every 256 bytes); eight sizes at the places full sub-blocks would put them
                    // are read independently, so their misses overlap, and when all eight are
                    // 255 they are those sub-blocks.
                    if offset &+ 8 &* 256 <= run.count {
                        var sizes: UInt8 = 255
                        for k in 0..<8 { sizes &= run[offset &+ k &* 256] }
                        if sizes == 255 {
                            for k in 0..<8 {
                                let payload = start &+ offset &+ k &* 256 &+ 1
                                segments.append(payload..<(payload &+ 255))
                            }
                            offset &+= 8 &* 256
                            continue
                        }
                    }
                    let size = Int(run[offset])
                    if size == 0 { return (start + offset + 1, true) }
                    segments.append((start + offset + 1)..<(start + offset + 1 + size))
                    offset += 1 + size
                }
                return (start + offset, false)
            }
            position = end
            if terminated { return true }
        }
        return false
    }

    /// §27 Trailer, or a byte that starts no block: the file ends. A file without images has
    /// nothing to show (giflib refuses it; browsers show a broken image).
    private mutating func end() throws(DecodingError) {
        guard !frames.isEmpty else { throw .invalidData("no image before the trailer") }
        state = .ended
    }

    /// §17–19: waits for the header, the screen descriptor and the global colour table.
    private mutating func readHeader(_ input: InputBuffer) throws(DecodingError) -> Bool {
        guard input.has(GIFScreenDescriptor.size, at: 0) else { return false }
        let screen = try GIFScreenDescriptor(input)
        guard input.has(screen.globalColorTableBytes, at: GIFScreenDescriptor.size) else { return false }
        self.screen = screen
        // Every frame is the whole logical screen: check it before any image is asked for.
        _ = try options.limits.checkedRasterBytes(width: screen.width, height: screen.height, bytesPerPixel: 4)
        position = GIFScreenDescriptor.size + screen.globalColorTableBytes
        if screen.globalColorTableBytes > 0 {
            globalColorTable = GIFScreenDescriptor.size..<position
            let entry = GIFScreenDescriptor.size + screen.backgroundIndex * 3
            if entry + 3 <= position { backgroundColor = input.copy(entry..<(entry + 3)).map(Int.init) }
        }
        state = .block
        revision += 1
        return true
    }

    /// §20–21: an Image Descriptor and its Local Color Table start a frame, with the Graphic
    /// Control Extension read since the previous image (§23 "scope": the next graphic rendering block).
    private mutating func readImageDescriptor(_ input: InputBuffer) throws(DecodingError) -> Bool {
        guard let screen, input.has(GIFImageDescriptor.size, at: position) else { return false }
        let descriptor = GIFImageDescriptor(input, at: position)
        let tableStart = position + GIFImageDescriptor.size
        guard input.has(descriptor.localColorTableBytes, at: tableStart) else { return false }
        try options.limits.checkFrame(after: frames.count, canvasWidth: screen.width, canvasHeight: screen.height)
        let control = pendingControl
        pendingControl = nil
        let visible = descriptor.rect.clipped(toWidth: screen.width, height: screen.height)
        let properties = FrameProperties(
            x: visible.x, y: visible.y, width: visible.width, height: visible.height,
            unclampedDuration: Double(control?.delay ?? 0) / 100, disposal: control?.disposal ?? .none,
            blend: control?.transparentIndex == nil ? .source : .over, hasAlpha: control?.transparentIndex != nil)
        let local = descriptor.localColorTableBytes > 0
            ? tableStart..<(tableStart + descriptor.localColorTableBytes) : nil
        frames.append(GIFFrameData(properties: properties, declared: descriptor.rect, interlaced: descriptor.interlaced,
                                   colorTable: local ?? globalColorTable, transparentIndex: control?.transparentIndex))
        position = tableStart + descriptor.localColorTableBytes
        state = .codeSize
        if control?.transparentIndex != nil || !visible.covers(width: screen.width, height: screen.height) {
            hasTransparency = true
        }
        revision += 1
        return true
    }
}

extension GIFContainer {
    /// The screen size, loop count and metadata. `hasAlpha` says whether an image so far has
    /// a transparent index or leaves part of the screen uncovered (the canvas starts
    /// transparent); `isInterlaced` is the first image's flag; `bitDepth` is 8 (colour table
    /// samples).
    package func makeProperties() -> ImageProperties? {
        guard let screen else { return nil }
        var p = ImageProperties(width: screen.width, height: screen.height, bitDepth: 8,
                                hasAlpha: frames.isEmpty || hasTransparency,
                                isInterlaced: frames.first?.interlaced ?? false)
        p.backgroundColor = backgroundColor
        metadata.resolve(into: &p)
        return p
    }

    package var frameCount: Int { frames.count }

    package func frameProperties(at index: Int) -> FrameProperties? { frames[existing: index]?.properties }

    package func isFrameComplete(at index: Int) -> Bool { frames[existing: index]?.complete == true }

    /// Every image, even a file's only one, is drawn on the logical screen.
    package var canvas: CanvasSpec? { screen.map { CanvasSpec(width: $0.width, height: $0.height) } }
}
