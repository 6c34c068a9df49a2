/// The marker segments of a file as libjpeg's `jcmarker.c` writes them (T.81 Annex B; JFIF
/// 1.01 APP0; EXIF APP1; ICC.1 Annex B.4 APP2), appended to a byte array.
enum JPEGMarkerWriter {
    static func marker(_ code: UInt8, into out: inout [UInt8]) {
        out.append(0xFF)
        out.append(code)
    }

    static func u16(_ value: Int, into out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }

    /// libjpeg's `write_JFIF_header`: version 1.01, no density unit, 1:1 density, no thumbnail.
    static func jfif(into out: inout [UInt8]) {
        marker(JPEGMarker.app0, into: &out)
        u16(16, into: &out)
        out += [0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0]
        u16(1, into: &out)
        u16(1, into: &out)
        out += [0, 0]
    }

    /// An APPn segment holding `payload` (at most 65533 bytes).
    static func application(_ n: UInt8, _ payload: [UInt8], into out: inout [UInt8]) {
        marker(JPEGMarker.app0 + n, into: &out)
        u16(payload.count + 2, into: &out)
        out += payload
    }

    /// DQT (B.2.4.1) for one table in natural order: 16-bit values when any exceeds 255.
    /// Returns whether it was 16-bit (such a file is not baseline: SOF1).
    @discardableResult
    static func quantizationTable(_ index: Int, _ table: [UInt16], into out: inout [UInt8]) -> Bool {
        let wide = table.contains { $0 > 255 }
        marker(JPEGMarker.dqt, into: &out)
        u16(wide ? 64 * 2 + 3 : 64 + 3, into: &out)
        out.append(UInt8(index | (wide ? 0x10 : 0)))
        for k in 0..<64 {
            let value = table[zigzagToNatural[k]]
            if wide { out.append(UInt8(value >> 8)) }
            out.append(UInt8(truncatingIfNeeded: value))
        }
        return wide
    }

    /// SOFn (B.2.2): precision 8, the size, per component Ci, Hi·16 + Vi, Tqi.
    static func frame(_ code: UInt8, _ layout: JPEGFrameLayout, into out: inout [UInt8]) {
        marker(code, into: &out)
        u16(8 + 3 * layout.components.count, into: &out)
        out.append(8)
        u16(layout.height, into: &out)
        u16(layout.width, into: &out)
        out.append(UInt8(layout.components.count))
        for c in layout.components {
            out += [UInt8(c.identifier), UInt8(c.h << 4 | c.v), UInt8(c.table)]
        }
    }

    /// DHT (B.2.4.2) for one table: Tc·16 + Th, BITS, HUFFVAL.
    static func huffmanTable(isAC: Bool, _ index: Int, _ spec: JPEGHuffmanSpec, into out: inout [UInt8]) {
        let symbols = spec.symbols.prefix(spec.counts.reduce(0, +))
        marker(JPEGMarker.dht, into: &out)
        u16(2 + 1 + 16 + symbols.count, into: &out)
        out.append(UInt8((isAC ? 0x10 : 0) | index))
        for n in spec.counts { out.append(UInt8(n)) }
        out += symbols
    }

    /// DRI (B.2.4.4).
    static func restartInterval(_ interval: Int, into out: inout [UInt8]) {
        marker(JPEGMarker.dri, into: &out)
        u16(4, into: &out)
        u16(interval, into: &out)
    }

    /// SOS (B.2.3) as libjpeg's `emit_sos`: a table selector the scan does not use is 0.
    static func scan(_ scan: JPEGScanSpec, _ layout: JPEGFrameLayout, into out: inout [UInt8]) {
        marker(JPEGMarker.sos, into: &out)
        u16(6 + 2 * scan.components.count, into: &out)
        out.append(UInt8(scan.components.count))
        for index in scan.components {
            let c = layout.components[index]
            let td = scan.ss == 0 && scan.ah == 0 ? c.table : 0
            let ta = scan.se != 0 ? c.table : 0
            out += [UInt8(c.identifier), UInt8(td << 4 | ta)]
        }
        out += [UInt8(scan.ss), UInt8(scan.se), UInt8(scan.ah << 4 | scan.al)]
    }
}
