import CZlib
import CodecCore

/// Writes an RGBA raster as a non-interlaced PNG (colour type 6, 8 or 16 bits), filter type 0
/// on every row, compressed with the system zlib one row at a time. The file goes out as it
/// is made: each block of compressed output becomes an IDAT chunk handed to the sink, so
/// writing holds a row and one block, never the compressed image. Small and plain: for the
/// command-line tool.
public enum PNGWriter {
    /// Bytes of compressed output gathered into one IDAT chunk.
    static let blockSize = 1 << 16

    /// Writes the PNG of `raster` through `sink`, which takes each piece of the file in order
    /// and returns false to stop (a write error); returns false if the sink did.
    public static func write(_ raster: Raster, to sink: (UnsafeRawBufferPointer) -> Bool) throws(DecodingError) -> Bool {
        var ihdr = [UInt8]()
        append32(&ihdr, UInt32(raster.width))
        append32(&ihdr, UInt32(raster.height))
        ihdr += [raster.bytesPerPixel == 8 ? 16 : 8, 6, 0, 0, 0]
        guard PNGContainer.signature.withUnsafeBytes(sink), emitChunk("IHDR", ihdr[...], sink) else { return false }
        guard try compressRows(raster, into: { emitChunk("IDAT", $0, sink) }) else { return false }
        return emitChunk("IEND", [], sink)
    }

    /// The whole PNG of `raster` in memory.
    public static func encode(_ raster: Raster) throws(DecodingError) -> [UInt8] {
        var out = [UInt8]()
        _ = try write(raster) { out.append(contentsOf: $0); return true }
        return out
    }

    /// The zlib stream of the filtered rows (a filter-type byte 0, then the row's samples,
    /// 16-bit ones big-endian), handed to `emit` a block at a time.
    private static func compressRows(_ raster: Raster,
                                     into emit: (ArraySlice<UInt8>) -> Bool) throws(DecodingError) -> Bool {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, 6) == Z_OK else { throw .limitExceeded("zlib could not allocate its state") }
        defer { deflateEnd(&stream) }
        let sixteen = raster.bytesPerPixel == 8
        var row = [UInt8](repeating: 0, count: raster.bytesPerRow + 1)
        var block = [UInt8](repeating: 0, count: blockSize)
        for y in 0...raster.height {
            let last = y == raster.height
            if !last { fill(&row, from: raster, y: y, sixteen: sixteen) }
            let written = try row.withUnsafeMutableBufferPointer { (r) throws(DecodingError) -> Bool in
                stream.next_in = r.baseAddress
                stream.avail_in = last ? 0 : UInt32(r.count)
                repeat {
                    let status = block.withUnsafeMutableBufferPointer { c in
                        stream.next_out = c.baseAddress
                        stream.avail_out = UInt32(c.count)
                        return deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                    }
                    guard status != Z_STREAM_ERROR else { throw .limitExceeded("zlib could not compress the image") }
                    let produced = block.count - Int(stream.avail_out)
                    if produced > 0, !emit(block[0..<produced]) { return false }
                } while stream.avail_out == 0
                return true
            }
            guard written else { return false }
        }
        return true
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

    /// Hands a chunk to the sink: length, type, data, and the CRC-32 of type and data (§5.3).
    private static func emitChunk(_ type: String, _ payload: ArraySlice<UInt8>,
                                  _ sink: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let name = Array(type.utf8)
        var crc = CRC32()
        name.withUnsafeBufferPointer { crc.update($0) }
        payload.withUnsafeBufferPointer { crc.update($0) }
        var header = [UInt8](), trailer = [UInt8]()
        append32(&header, UInt32(payload.count))
        header += name
        append32(&trailer, crc.value)
        return header.withUnsafeBytes(sink) && payload.withUnsafeBytes(sink) && trailer.withUnsafeBytes(sink)
    }
}
