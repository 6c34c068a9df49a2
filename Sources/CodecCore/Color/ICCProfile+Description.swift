extension ICCProfile {
    /// The profile description (`'desc'` tag, clause 9.2.41): the ASCII part of a version 2
    /// `textDescriptionType`, or the first (preferably English) record of a version 4
    /// `multiLocalizedUnicodeType` (clause 10.15). Nil when the tag is missing or malformed.
    public var profileDescription: String? {
        guard let (offset, size) = tag("desc"), let type = type(at: offset) else { return nil }
        if type == ICCSignature("desc") {
            guard let length = data.u32(offset + 8), length <= size - 12,
                  let text = data.slice(offset + 12, Int(length)) else { return nil }
            return String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard type == ICCSignature("mluc"), let records = data.u32(offset + 8), let recordSize = data.u32(offset + 12),
              recordSize >= 12, records > 0, records <= 1024 else { return nil }
        var chosen = 0
        for r in 0..<Int(records) where data.u16(offset + 16 + r * Int(recordSize)) == 0x656E {
            chosen = r
            break
        }
        let record = offset + 16 + chosen * Int(recordSize)
        guard let length = data.u32(record + 4), let start = data.u32(record + 8),
              Int(start) <= size, Int(length) <= size - Int(start),
              let text = data.slice(offset + Int(start), Int(length) & ~1) else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(text.count / 2)
        var i = text.startIndex
        while i + 1 < text.endIndex {
            units.append(UInt16(text[i]) << 8 | UInt16(text[i + 1]))
            i += 2
        }
        return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
    }
}
