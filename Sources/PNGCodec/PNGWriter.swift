import CZlib
import CodecCore

/// Writes an RGBA raster as a non-interlaced PNG (colour type 6, 8 or 16 bits), filter type 0
/// on every row, compressed with the system zlib. Small and plain: for the command-line tool.
public enum PNGWriter {
    public static func encode(_ raster: Raster) throws(DecodingError) -> [UInt8] {
        let sixteen = raster.bytesPerPixel == 8
        let rowBytes = raster.width * raster.bytesPerPixel
        var filtered = [UInt8]()
        filtered.reserveCapacity((rowBytes + 1) * raster.height)
        raster.pixels.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: UInt16.self)
            for y in 0..<raster.height {
                filtered.append(0)
                if sixteen {
                    for v in samples[(y * rowBytes / 2)..<((y + 1) * rowBytes / 2)] {
                        filtered.append(UInt8(v >> 8))
                        filtered.append(UInt8(v & 0xFF))
                    }
                } else {
                    filtered.append(contentsOf: raw[(y * rowBytes)..<((y + 1) * rowBytes)])
                }
            }
        }
        var out = PNGContainer.signature
        var ihdr = [UInt8]()
        append32(&ihdr, UInt32(raster.width))
        append32(&ihdr, UInt32(raster.height))
        ihdr += [sixteen ? 16 : 8, 6, 0, 0, 0]
        appendChunk(&out, "IHDR", ihdr)
        appendChunk(&out, "IDAT", try deflate(filtered))
        appendChunk(&out, "IEND", [])
        return out
    }

    private static func deflate(_ data: [UInt8]) throws(DecodingError) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in compress2(o.baseAddress, &size, i.baseAddress, uLong(i.count), 6) }
        }
        guard status == Z_OK else { throw .limitExceeded("zlib could not compress the image") }
        return Array(out[0..<Int(size)])
    }

    private static func append32(_ out: inout [UInt8], _ v: UInt32) {
        out += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static func appendChunk(_ out: inout [UInt8], _ type: String, _ payload: [UInt8]) {
        append32(&out, UInt32(payload.count))
        let body = Array(type.utf8) + payload
        out += body
        append32(&out, body.withUnsafeBufferPointer { CRC32.checksum($0) })
    }
}
