import CZlib
import CodecCore

/// The ancillary chunks written for ``ImageMetadata`` (PNG 3rd edition §11.3), all before PLTE
/// and IDAT: iCCP (§11.3.2.3), eXIf (§11.3.6.1), pHYs (§11.3.5.3) and the XMP packet in an
/// uncompressed iTXt with the keyword "XML:com.adobe.xmp" (§11.3.3.4, XMP part 3).
enum PNGMetadataChunks {
    static func write(_ metadata: ImageMetadata, to sink: inout some ByteSink) throws(EncodingError) {
        if let icc = metadata.iccProfile, !icc.isEmpty {
            var data = Array("ICC Profile".utf8) + [0, 0]
            data += try zlibCompressed(icc)
            try PNGChunkWriter.write(.iCCP, data, to: &sink)
        }
        if let exif = metadata.exifToWrite {
            try PNGChunkWriter.write(.eXIf, exif, to: &sink)
        }
        if let dimensions = metadata.physicalPixelDimensions,
           dimensions.pixelsPerUnitX > 0, dimensions.pixelsPerUnitY > 0,
           dimensions.pixelsPerUnitX <= Int(Int32.max), dimensions.pixelsPerUnitY <= Int(Int32.max) {
            var data = [UInt8]()
            PNGChunkWriter.appendBigEndian(UInt32(dimensions.pixelsPerUnitX), to: &data)
            PNGChunkWriter.appendBigEndian(UInt32(dimensions.pixelsPerUnitY), to: &data)
            data.append(dimensions.unitIsMetre ? 1 : 0)
            try PNGChunkWriter.write(.pHYs, data, to: &sink)
        }
        if let xmp = metadata.xmp {
            try PNGChunkWriter.write(.iTXt, Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp, to: &sink)
        }
    }

    /// `bytes` as one zlib stream at level 9.
    static func zlibCompressed(_ bytes: [UInt8]) throws(EncodingError) -> [UInt8] {
        let deflater = try PNGDeflater(level: 9, strategy: Z_DEFAULT_STRATEGY, blockSize: 1 << 14)
        var out = [UInt8]()
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(EncodingError) in
                try deflater.compress(raw, finish: true) { out.append(contentsOf: $0) }
            }
        }
        try result.get()
        return out
    }
}
