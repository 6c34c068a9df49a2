/// The marker segments a transcode writes (T.81 B.2), as libjpeg-turbo's `jcmarker.c` writes
/// them for `jpegtran`: SOI, the JFIF or Adobe header `jpeg_set_colorspace` asks for, the
/// copied segments, DQT, SOF, and per scan DHT and SOS.
struct JPEGTranscodeHeader {
    let colorSpace: JPEGColorSpace
    let markers: JPEGSavedMarkers

    /// JFIF APP0 for grayscale and YCbCr, unless the first copied segment is EXIF
    /// (`jtransform_adjust_parameters`).
    var writesJFIF: Bool { (colorSpace == .grayscale || colorSpace == .yCbCr) && !markers.startsWithEXIF }
    /// Adobe APP14 for RGB, CMYK and YCCK.
    var writesAdobe: Bool { colorSpace == .rgb || colorSpace == .cmyk || colorSpace == .ycck }

    /// `jpeg_set_colorspace`'s Huffman table numbers: 1 for the chroma of YCbCr and YCCK.
    func huffmanTables(componentCount: Int) -> [Int] {
        (0..<componentCount).map { c in
            (colorSpace == .yCbCr || colorSpace == .ycck) && (c == 1 || c == 2) ? 1 : 0
        }
    }

    /// SOI, JFIF APP0 (version and density from the source's JFIF marker, else 1.01 and 1:1;
    /// `jpeg_copy_critical_parameters`) or Adobe APP14 (version 100, transform 1 for YCbCr,
    /// 2 for YCCK, else 0), then the copied segments minus a JFIF or Adobe one the header
    /// already gives (`jcopy_markers_execute`).
    func fileHeader() -> [UInt8] {
        var out: [UInt8] = [0xFF, JPEGMarker.soi]
        if writesJFIF {
            var version: (UInt8, UInt8) = (1, 1)
            var density: (UInt8, UInt16, UInt16) = (0, 1, 1)
            if let jfif = markers.jfif {
                if jfif.major == 1 { version = (jfif.major, jfif.minor) }
                density = (jfif.unit, jfif.x, jfif.y)
            }
            out += Self.segment(JPEGMarker.app0, JPEGMetadata.jfif + [version.0, version.1, density.0]
                + Self.u16(Int(density.1)) + Self.u16(Int(density.2)) + [0, 0])
        }
        if writesAdobe {
            let transform: UInt8 = colorSpace == .ycck ? 2 : 0
            out += Self.segment(JPEGMarker.app0 + 14, JPEGMetadata.adobe + [0, 100, 0, 0, 0, 0, transform])
        }
        for s in markers.segments {
            if writesJFIF && s.code == JPEGMarker.app0 && s.payload.starts(with: JPEGMetadata.jfif) { continue }
            if writesAdobe && s.code == JPEGMarker.app0 + 14 && s.payload.starts(with: JPEGMetadata.adobe) { continue }
            out += Self.segment(s.code, s.payload)
        }
        return out
    }

    /// DQT (B.2.4.1) for each component's table, once, in zigzag order, 16-bit when a value
    /// exceeds 255; then SOF2 (progressive), SOF0 (baseline) or SOF1 (16-bit tables).
    func frameHeader(frame: JPEGFrameHeader, output: JPEGOutputFrame, quantization: [[UInt16]?],
                     progressive: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var sent: [Int] = []
        var wide = false
        for c in frame.components where !sent.contains(c.quantizationTable) {
            sent.append(c.quantizationTable)
            let table = quantization[c.quantizationTable] ?? [UInt16](repeating: 1, count: 64)
            wide = JPEGMarkerWriter.quantizationTable(c.quantizationTable, table, into: &out) || wide
        }
        let code = progressive ? JPEGMarker.sof2 : wide ? JPEGMarker.sof1 : JPEGMarker.sof0
        var p: [UInt8] = [8] + Self.u16(output.height) + Self.u16(output.width) + [UInt8(frame.components.count)]
        for (i, c) in frame.components.enumerated() {
            p += [c.identifier, UInt8(output.sampling[i].h << 4 | output.sampling[i].v), UInt8(c.quantizationTable)]
        }
        return out + Self.segment(code, p)
    }

    /// SOS (`emit_sos`): table selectors 0 where the scan uses no table.
    static func scanHeader(_ scan: JPEGScanSpec, ids: [UInt8], tables: [Int]) -> [UInt8] {
        var p: [UInt8] = [UInt8(scan.components.count)]
        for c in scan.components {
            let td = scan.ss == 0 && scan.ah == 0 ? tables[c] : 0
            let ta = scan.se != 0 ? tables[c] : 0
            p += [ids[c], UInt8(td << 4 | ta)]
        }
        return segment(JPEGMarker.sos, p + [UInt8(scan.ss), UInt8(scan.se), UInt8(scan.ah << 4 | scan.al)])
    }

    /// `jpeg_simple_progression`: for YCbCr, libjpeg's ten-scan script; otherwise DC first,
    /// two AC bands and two refinements per component.
    static func progressiveScript(componentCount n: Int, colorSpace: JPEGColorSpace) -> [JPEGScanSpec] {
        let all = Array(0..<n)
        func dc(_ ah: Int, _ al: Int) -> JPEGScanSpec { JPEGScanSpec(components: all, ss: 0, se: 0, ah: ah, al: al) }
        func ac(_ c: Int, _ ss: Int, _ se: Int, _ ah: Int, _ al: Int) -> JPEGScanSpec {
            JPEGScanSpec(components: [c], ss: ss, se: se, ah: ah, al: al)
        }
        if n == 3 && colorSpace == .yCbCr {
            return [dc(0, 1), ac(0, 1, 5, 0, 2), ac(2, 1, 63, 0, 1), ac(1, 1, 63, 0, 1), ac(0, 6, 63, 0, 2),
                    ac(0, 1, 63, 2, 1), dc(1, 0), ac(2, 1, 63, 1, 0), ac(1, 1, 63, 1, 0), ac(0, 1, 63, 1, 0)]
        }
        return [dc(0, 1)] + all.map { ac($0, 1, 5, 0, 2) } + all.map { ac($0, 6, 63, 0, 2) }
            + all.map { ac($0, 1, 63, 2, 1) } + [dc(1, 0)] + all.map { ac($0, 1, 63, 1, 0) }
    }

    static func segment(_ code: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, code] + u16(payload.count + 2) + payload
    }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
}
