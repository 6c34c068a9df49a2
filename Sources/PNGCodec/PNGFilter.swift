import CodecCore

/// Scanline filters (PNG 3rd edition §7.3 and §9): reverses filtering in place.
enum PNGFilter {
    /// Bytes the row buffers carry past the scanline so that 4-byte loads of the last
    /// 3-byte pixel stay in bounds.
    static let rowPadding = 8

    /// Reconstructs `row` (filtered bytes, no filter-type byte) from `previous` (the
    /// reconstructed row above, all zero for the first row of a pass). `stride` is the
    /// filter's `bpp`; both buffers have ``rowPadding`` readable bytes past `count`.
    /// Throws for a filter type above 4.
    @inline(__always)
    static func unfilter(type: UInt8, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
                         count: Int, stride: Int) throws(DecodingError) {
        switch type {
        case 0: return
        case 1: sub(row, count: count, stride: stride)
        case 2: up(row, previous, count: count)
        case 3:
            switch stride {
            case 3: average(row, previous, count: count, stride: 3)
            case 4: average(row, previous, count: count, stride: 4)
            default: average(row, previous, count: count, stride: stride)
            }
        case 4:
            switch stride {
            case 1: paeth(row, previous, count: count, stride: 1)
            case 3: paethSIMD(row, previous, count: count, stride: 3)
            case 4: paethSIMD(row, previous, count: count, stride: 4)
            case 6: paeth(row, previous, count: count, stride: 6)
            case 8: paeth(row, previous, count: count, stride: 8)
            default: paeth(row, previous, count: count, stride: stride)
            }
        default: throw .invalidData("filter type is above 4")
        }
    }

    /// Reconstructs two consecutive rows at once when both use Paeth on 3- or 4-byte pixels
    /// (``paethPair(_:_:rowLength:count:stride:)``): `row` as for ``unfilter(type:row:previous:count:stride:)``,
    /// the next row's bytes `rowLength` later. False, with nothing done, for any other pair.
    @inline(__always)
    static func unfilterPaethPair(types: (UInt8, UInt8), row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
                                  rowLength: Int, count: Int, stride: Int) -> Bool {
        guard types == (4, 4) else { return false }
        switch stride {
        case 3: paethPair(row, previous, rowLength: rowLength, count: count, stride: 3)
        case 4: paethPair(row, previous, rowLength: rowLength, count: count, stride: 4)
        default: return false
        }
        return true
    }

    /// Recon(x) = Filt(x) + Recon(a)
    @inline(__always)
    static func sub(_ row: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        var i = stride
        while i < count {
            row[i] = row[i] &+ row[i &- stride]
            i &+= 1
        }
    }

    /// Recon(x) = Filt(x) + Recon(b)
    @inline(__always)
    static func up(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>, count: Int) {
        var i = 0
        while i &+ 16 <= count {
            let a = UnsafeRawPointer(row + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let b = UnsafeRawPointer(prev + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(row + i).storeBytes(of: a &+ b, as: SIMD16<UInt8>.self)
            i &+= 16
        }
        while i < count {
            row[i] = row[i] &+ prev[i]
            i &+= 1
        }
    }

    /// Recon(x) = Filt(x) + floor((Recon(a) + Recon(b)) / 2)
    @inline(__always)
    static func average(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>, count: Int, stride: Int) {
        var i = 0
        while i < min(stride, count) {
            row[i] = row[i] &+ prev[i] &>> 1
            i &+= 1
        }
        while i < count {
            let s = UInt16(row[i &- stride]) &+ UInt16(prev[i])
            row[i] = row[i] &+ UInt8(truncatingIfNeeded: s &>> 1)
            i &+= 1
        }
    }

    /// The Paeth predictor of §9.4 on a = left, b = above, c = upper left.
    @inline(__always)
    static func predictor(_ a: Int16, _ b: Int16, _ c: Int16) -> Int16 {
        let pa = abs(b &- c), pb = abs(a &- c), pc = abs(a &+ b &- c &- c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Recon(x) = Filt(x) + PaethPredictor(Recon(a), Recon(b), Recon(c))
    @inline(__always)
    static func paeth(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>, count: Int, stride: Int) {
        var i = 0
        while i < min(stride, count) {
            row[i] = row[i] &+ prev[i]
            i &+= 1
        }
        while i < count {
            let p = predictor(Int16(row[i &- stride]), Int16(prev[i]), Int16(prev[i &- stride]))
            row[i] = row[i] &+ UInt8(truncatingIfNeeded: p)
            i &+= 1
        }
    }
}
