import CZlib
import CodecCore

/// Writes an RGBA raster as a non-interlaced PNG (colour type 6, 8 or 16 bits), filter type 0
/// on every row, compressed with the system zlib one row at a time, so that writing holds the
/// compressed output and a row, never a second copy of the image. Small and plain: for the
/// command-line tool.
public enum PNGWriter {
    public static func encode(_ raster: Raster) throws(DecodingError) -> [UInt8] {
        let sixteen = raster.bytesPerPixel == 8
        var out = PNGContainer.signature
        var ihdr = [UInt8]()
        append32(&ihdr, UInt32(raster.width))
        append32(&ihdr, UInt32(raster.height))
        ihdr += [sixteen ? 16 : 8, 6, 0, 0, 0]
        appendChunk(&out, "IHDR", ihdr)
        appendChunk(&out, "IDAT", try compressRows(raster, sixteen: sixteen))
        appendChunk(&out, "IEND", [])
        return out
    }

    /// The zlib stream of the filtered rows: a filter-type byte 0, then the row's samples
    /// (16-bit ones big-endian).
    private static func compressRows(_ raster: Raster, sixteen: Bool) throws(DecodingError) -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, 6) == Z_OK else { throw .limitExceeded("zlib could not allocate its state") }
        defer { deflateEnd(&stream) }
        let rowBytes = raster.width * raster.bytesPerPixel
        var row = [UInt8](repeating: 0, count: rowBytes + 1)
        var compressed = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        for y in 0...raster.height {
            let last = y == raster.height
            if !last { fill(&row, from: raster, y: y, sixteen: sixteen) }
            try row.withUnsafeMutableBufferPointer { (r) throws(DecodingError) in
                stream.next_in = r.baseAddress
                stream.avail_in = last ? 0 : UInt32(r.count)
                repeat {
                    let status = chunk.withUnsafeMutableBufferPointer { c in
                        stream.next_out = c.baseAddress
                        stream.avail_out = UInt32(c.count)
                        return deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                    }
                    guard status != Z_STREAM_ERROR else { throw .limitExceeded("zlib could not compress the image") }
                    compressed.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                } while stream.avail_out == 0
            }
        }
        return compressed
    }

    /// Filter byte 0 and row `y`'s samples, big-endian for 16 bits.
    private static func fill(_ row: inout [UInt8], from raster: Raster, y: Int, sixteen: Bool) {
        let rowBytes = raster.width * raster.bytesPerPixel
        row.withUnsafeMutableBufferPointer { r in
            r[0] = 0
            raster.pixels.withUnsafeBytes { raw in
                if sixteen {
                    let samples = raw.bindMemory(to: UInt16.self)
                    for (i, v) in samples[(y * rowBytes / 2)..<((y + 1) * rowBytes / 2)].enumerated() {
                        r[1 + 2 * i] = UInt8(v >> 8)
                        r[2 + 2 * i] = UInt8(v & 0xFF)
                    }
                } else {
                    for i in 0..<rowBytes { r[1 + i] = raw[y * rowBytes + i] }
                }
            }
        }
    }

    private static func append32(_ out: inout [UInt8], _ v: UInt32) {
        out += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static func appendChunk(_ out: inout [UInt8], _ type: String, _ payload: [UInt8]) {
        append32(&out, UInt32(payload.count))
        let name = Array(type.utf8)
        var crc = CRC32()
        name.withUnsafeBufferPointer { crc.update($0) }
        payload.withUnsafeBufferPointer { crc.update($0) }
        out += name
        out += payload
        append32(&out, crc.value)
    }
}
