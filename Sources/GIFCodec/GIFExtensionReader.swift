import CodecCore

/// Reads one extension block (GIF89a §15 "Data Sub-blocks", §23–26) one whole data sub-block
/// at a time, keeping only what the library uses.
///
/// - 0xF9 Graphic Control Extension (§23): the first sub-block, for the next image.
/// - 0xFE Comment Extension (§24): the sub-blocks concatenated.
/// - 0xFF Application Extension (§26): the first sub-block is the identifier and authentication
///   code; NETSCAPE2.0/ANIMEXTS1.0 give the loop count, XMP and ICC profile extensions their payload.
/// - 0x01 Plain Text Extension (§25) and unknown labels are skipped; browsers draw no text,
///   and a Graphic Control Extension before plain text stays pending for the next image.
struct GIFExtensionReader {
    private enum Kind {
        case graphicControl
        case comment
        /// An application extension whose identifier has not been read yet.
        case application
        case applicationData(GIFMetadata.Application)
        case skipped
    }

    private var kind: Kind
    private var control: GIFGraphicControl?
    private var payload: [UInt8] = []
    /// The payload passed the metadata budget and is dropped.
    private var overBudget = false
    private var loopCount: Int?

    init(label: UInt8) {
        switch label {
        case 0xF9: kind = .graphicControl
        case 0xFE: kind = .comment
        case 0xFF: kind = .application
        default: kind = .skipped
        }
    }

    /// Takes the next data sub-block (its size byte excluded).
    mutating func read(_ block: UnsafeBufferPointer<UInt8>, _ metadata: inout GIFMetadata) {
        switch kind {
        case .graphicControl:
            control = GIFGraphicControl(block)
            kind = .skipped
        case .comment, .applicationData(.iccProfile):
            collect(block, sizeByte: false, metadata)
        case .applicationData(.xmp):
            collect(block, sizeByte: true, metadata)
        case .application:
            kind = .applicationData(GIFMetadata.Application(identifier: block))
        case .applicationData(.looping):
            // NETSCAPE2.0 sub-block ID 1: loop count, little-endian.
            if block.count >= 3 && block[0] == 1 && loopCount == nil {
                loopCount = Int(block[1]) | Int(block[2]) << 8
            }
        case .applicationData(.other), .skipped:
            break
        }
    }

    /// Gathers a payload sub-block, unless the payload can no longer fit the metadata limits.
    private mutating func collect(_ block: UnsafeBufferPointer<UInt8>, sizeByte: Bool, _ metadata: GIFMetadata) {
        guard !overBudget else { return }
        let size = block.count + (sizeByte ? 1 : 0)
        guard metadata.itemsLeft > 0, payload.count + size <= metadata.budget else {
            overBudget = true
            payload = []
            return
        }
        if sizeByte { payload.append(UInt8(truncatingIfNeeded: block.count)) }
        payload.append(contentsOf: block)
    }

    /// The Block Terminator was read: hands over what the extension said.
    func finish(_ metadata: inout GIFMetadata, control pending: inout GIFGraphicControl?, beforeFirstImage: Bool) {
        switch kind {
        case .skipped where control != nil:
            pending = control
        case .comment:
            if !overBudget, metadata.reserve(payload.count) {
                metadata.comments.append(TextEntry(keyword: "Comment", text: String(decoding: payload, as: UTF8.self)))
            }
        case .applicationData(.looping):
            if beforeFirstImage, let loopCount { metadata.loopCount = loopCount }
        case .applicationData(.xmp):
            if !overBudget, metadata.xmp == nil, metadata.reserve(payload.count) {
                metadata.xmp = TextEntry(keyword: "XML:com.adobe.xmp", text: String(decoding: GIFMetadata.xmpPacket(payload), as: UTF8.self))
            }
        case .applicationData(.iccProfile):
            if !overBudget, metadata.iccProfile == nil, metadata.reserve(payload.count) { metadata.iccProfile = payload }
        default:
            break
        }
    }
}
