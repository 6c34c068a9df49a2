/// Which APPn and COM segments a transcode copies, as `jpegtran -copy` chooses
/// (`jcopy_markers_setup` in libjpeg-turbo's `transupp.c`).
public enum JPEGMarkerCopy: Sendable, Equatable {
    /// No extra markers.
    case none
    /// COM segments only (jpegtran's default).
    case comments
    /// Every APPn and COM segment.
    case all
}

/// The APPn and COM segments of a file in file order (T.81 B.2.4.5, B.2.4.6), as libjpeg saves
/// them for `jcopy_markers_execute`, and the JFIF and Adobe facts (`examine_app0`,
/// `examine_app14`) that decide the header a transcode writes.
struct JPEGSavedMarkers {
    struct Segment {
        let code: UInt8
        var payload: [UInt8]
    }

    private(set) var segments: [Segment] = []
    /// The last JFIF APP0's version, density unit and densities (`saw_JFIF_marker`).
    private(set) var jfif: (major: UInt8, minor: UInt8, unit: UInt8, x: UInt16, y: UInt16)?

    /// Walks `bytes` from SOI to EOI (or the end), skipping entropy-coded data, and keeps the
    /// segments `copy` selects.
    init(_ bytes: [UInt8], copy: JPEGMarkerCopy) {
        var p = 2
        let n = bytes.count
        while p + 1 < n {
            guard bytes[p] == 0xFF else { p += 1; continue }
            let code = bytes[p + 1]
            if code == 0xFF { p += 1; continue }
            if code == JPEGMarker.eoi { return }
            // Stuffed zeros and RSTn inside entropy-coded data; stray RSTn and SOI elsewhere.
            if code == 0 || JPEGMarker.isRestart(code) || code == JPEGMarker.soi { p += 2; continue }
            guard p + 3 < n else { return }
            let length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            guard length >= 2 else { p += 4; continue }
            guard p + 2 + length <= n else { return }
            let payload = Array(bytes[(p + 4)..<(p + 2 + length)])
            if (JPEGMarker.app0...JPEGMarker.app15).contains(code) || code == JPEGMarker.com {
                note(code, payload)
                if copy == .all || (copy == .comments && code == JPEGMarker.com) {
                    segments.append(Segment(code: code, payload: payload))
                }
            }
            p += 2 + length
        }
    }

    /// `examine_app0`: a JFIF APP0 of at least 14 bytes sets the version and density.
    private mutating func note(_ code: UInt8, _ p: [UInt8]) {
        guard code == JPEGMarker.app0, p.count >= 14, p.starts(with: JPEGMetadata.jfif) else { return }
        jfif = (p[5], p[6], p[7], UInt16(p[8]) << 8 | UInt16(p[9]), UInt16(p[10]) << 8 | UInt16(p[11]))
    }

    /// Whether the first segment kept is an EXIF APP1 (`jtransform_adjust_parameters` then
    /// writes no JFIF APP0, and fixes the EXIF image size).
    var startsWithEXIF: Bool {
        guard let first = segments.first else { return false }
        return first.code == JPEGMarker.app0 + 1 && first.payload.starts(with: JPEGMetadata.exifHeader)
    }

    /// Writes orientation 1 into every EXIF APP1 kept.
    mutating func resetOrientation() {
        for i in segments.indices where segments[i].code == JPEGMarker.app0 + 1 && segments[i].payload.starts(with: JPEGMetadata.exifHeader) {
            var tiff = Array(segments[i].payload.dropFirst(6))
            JPEGEXIFEditing.resetOrientation(&tiff)
            segments[i].payload = JPEGMetadata.exifHeader + tiff
        }
    }

    /// Applies `body` to the payload of the first segment, after its 6-byte EXIF header.
    mutating func updateFirstEXIF(_ body: (inout [UInt8]) -> Void) {
        guard startsWithEXIF else { return }
        var tiff = Array(segments[0].payload.dropFirst(6))
        body(&tiff)
        segments[0].payload = JPEGMetadata.exifHeader + tiff
    }
}
