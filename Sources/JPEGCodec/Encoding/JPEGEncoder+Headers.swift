/// What a JPEG file carries besides its pixels.
public struct JPEGEncoderMetadata: Sendable, Equatable {
    /// The TIFF structure of an EXIF APP1 segment (after "Exif\0\0"), at most 65527 bytes.
    public var exif: [UInt8]?
    /// An ICC profile, split over APP2 segments (ICC.1 Annex B.4).
    public var icc: [UInt8]?
    /// An XMP packet for an APP1 segment after "http://ns.adobe.com/xap/1.0/\0" (XMP part 3,
    /// 1.1.3: standard XMP, at most 65504 bytes; a longer packet is not written).
    public var xmp: [UInt8]?
    /// The colour RGBA input is flattened on.
    public var background: (UInt8, UInt8, UInt8)

    /// Metadata to write; by default none, and alpha flattened onto white.
    public init(exif: [UInt8]? = nil, icc: [UInt8]? = nil, xmp: [UInt8]? = nil,
                background: (UInt8, UInt8, UInt8) = (255, 255, 255)) {
        self.exif = exif
        self.icc = icc
        self.xmp = xmp
        self.background = background
    }

    /// Equal when every field is (the background compared sample by sample).
    public static func == (a: Self, b: Self) -> Bool {
        a.exif == b.exif && a.icc == b.icc && a.xmp == b.xmp && a.background == b.background
    }
}

extension JPEGEncoder {
    /// SOI, JFIF APP0, EXIF, XMP and ICC, DQT per table, SOFn (libjpeg's `write_file_header`
    /// and `write_frame_header`, with the application markers between them as
    /// `jpeg_write_marker` and `jpeg_write_icc_profile` put them; EXIF, XMP, ICC is the order of
    /// camera and editor files, which `jpegtran -copy all` keeps).
    func fileHeader(tables: [[UInt16]]) -> [UInt8] {
        var out: [UInt8] = []
        JPEGMarkerWriter.marker(JPEGMarker.soi, into: &out)
        JPEGMarkerWriter.jfif(into: &out)
        if let exif = metadata.exif, exif.count <= 65527 {
            JPEGMarkerWriter.application(1, [0x45, 0x78, 0x69, 0x66, 0, 0] + exif, into: &out)
        }
        if let xmp = metadata.xmp, !xmp.isEmpty, xmp.count <= 65504 {
            JPEGMarkerWriter.application(1, JPEGMetadata.xmpHeader + xmp, into: &out)
        }
        if let icc = metadata.icc, !icc.isEmpty { iccSegments(icc, into: &out) }
        var wide = false
        for table in Set(layout.components.map(\.table)).sorted() {
            wide = JPEGMarkerWriter.quantizationTable(table, tables[table], into: &out) || wide
        }
        let code = settings.progressive ? JPEGMarker.sof2 : wide ? JPEGMarker.sof1 : JPEGMarker.sof0
        JPEGMarkerWriter.frame(code, layout, into: &out)
        return out
    }

    /// ICC.1 B.4: "ICC_PROFILE\0", sequence number from 1, count, then up to 65519 bytes each.
    private func iccSegments(_ icc: [UInt8], into out: inout [UInt8]) {
        let chunk = 65519
        let count = (icc.count + chunk - 1) / chunk
        guard count <= 255 else { return }
        for n in 0..<count {
            let part = icc[(n * chunk)..<min(icc.count, (n + 1) * chunk)]
            let tag: [UInt8] = [0x49, 0x43, 0x43, 0x5F, 0x50, 0x52, 0x4F, 0x46, 0x49, 0x4C, 0x45, 0]
            JPEGMarkerWriter.application(2, tag + [UInt8(n + 1), UInt8(count)] + part, into: &out)
        }
    }

    /// The Annex K tables by slot, for the tables the frame's components use.
    func standardTables() -> [Int: JPEGHuffmanSpec] {
        var specs: [Int: JPEGHuffmanSpec] = [:]
        for c in layout.components {
            specs[JPEGHuffmanFrequencies.slot(isAC: false, index: c.table)] = c.table == 0 ? JPEGStandardTables.luminanceDC : JPEGStandardTables.chrominanceDC
            specs[JPEGHuffmanFrequencies.slot(isAC: true, index: c.table)] = c.table == 0 ? JPEGStandardTables.luminanceAC : JPEGStandardTables.chrominanceAC
        }
        return specs
    }

    func scanWalker(_ scan: JPEGScanSpec) -> JPEGScanWalker {
        let components = scan.components.map { index in
            let c = layout.components[index]
            return JPEGScanComponent(index: index, h: c.h, v: c.v, widthInBlocks: c.widthInBlocks, heightInBlocks: c.heightInBlocks,
                                     dcSlot: JPEGHuffmanFrequencies.slot(isAC: false, index: c.table),
                                     acSlot: JPEGHuffmanFrequencies.slot(isAC: true, index: c.table))
        }
        return JPEGScanWalker(components: components, frameMCUsPerRow: layout.mcusPerRow, restart: settings.restart)
    }

    /// libjpeg's `write_scan_header`: DHT for each table the scan uses, once per scan (DC when
    /// Ss = 0 and Ah = 0, AC when Se > 0), DRI when the interval differs from the last one
    /// written, SOS. Returns the interval now in force.
    @discardableResult
    func writeScanHeader(_ scan: JPEGScanSpec, specs: [Int: JPEGHuffmanSpec], walker: JPEGScanWalker, lastRestart: Int,
                         into out: inout [UInt8]) -> Int {
        var sent = Set<Int>()
        for index in scan.components {
            let table = layout.components[index].table
            if scan.ss == 0 && scan.ah == 0, sent.insert(table).inserted, let spec = specs[table] {
                JPEGMarkerWriter.huffmanTable(isAC: false, table, spec, into: &out)
            }
            if scan.se != 0, sent.insert(4 + table).inserted, let spec = specs[4 + table] {
                JPEGMarkerWriter.huffmanTable(isAC: true, table, spec, into: &out)
            }
        }
        if walker.restartInterval != lastRestart { JPEGMarkerWriter.restartInterval(walker.restartInterval, into: &out) }
        JPEGMarkerWriter.scan(scan, layout, into: &out)
        return walker.restartInterval
    }
}
