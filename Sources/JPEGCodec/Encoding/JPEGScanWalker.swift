/// A scan's component as the entropy encoders see it.
struct JPEGScanComponent {
    /// Index in the frame's components (and in the planes array).
    let index: Int
    let h: Int
    let v: Int
    let widthInBlocks: Int
    let heightInBlocks: Int
    let dcSlot: Int
    let acSlot: Int
}

/// Walks the MCUs of a scan in order (T.81 A.2.2 non-interleaved: one block per MCU over the
/// component's real blocks; A.2.3 interleaved: h×v blocks per component per MCU over the MCU
/// grid, dummy blocks included), counting restart intervals (libjpeg's `restarts_to_go`).
struct JPEGScanWalker {
    let components: [JPEGScanComponent]
    /// MCUs per MCU row: the frame's for an interleaved scan, the component's block width otherwise.
    let mcusPerRow: Int
    /// MCUs between restart markers (0: none), libjpeg's `restart_interval` for this scan.
    let restartInterval: Int
    private var restartsToGo: Int
    private var nextRestart = 0

    var interleaved: Bool { components.count > 1 }

    /// `restart`: the frame's request, resolved per scan as jcmaster's `per_scan_setup` does
    /// (rows × this scan's MCUs per row, at most 65535).
    init(components: [JPEGScanComponent], frameMCUsPerRow: Int, restart: JPEGEncoderSettings.Restart?) {
        self.components = components
        mcusPerRow = components.count > 1 ? frameMCUsPerRow : components[0].widthInBlocks
        switch restart {
        case .rows(let n): restartInterval = min(n * mcusPerRow, 65535)
        case .mcus(let n): restartInterval = n
        case nil: restartInterval = 0
        }
        restartsToGo = restartInterval
    }

    /// Calls `block(position in scan, block)` for every block of the MCUs of iMCU rows `rows`
    /// (each h·v block rows of the frame's grid; for a non-interleaved scan, the real block rows
    /// among them), and `restart(n)` before each MCU that starts a new restart interval.
    mutating func walk(planes: [JPEGCoefficientPlane], iMCURows rows: Range<Int>,
                       restart: (Int) -> Void, block: (Int, UnsafePointer<Int16>) -> Void) {
        Self.withBases(planes, components.map(\.index), []) { bases in
            for mcuRow in rows {
                if interleaved {
                    for mcu in 0..<mcusPerRow {
                        startMCU(restart)
                        for (position, c) in components.enumerated() {
                            for y in 0..<c.v {
                                let rowStart = bases[position].offset(row: mcuRow * c.v + y, column: mcu * c.h)
                                for x in 0..<c.h { block(position, bases[position].pointer + rowStart + x * 64) }
                            }
                        }
                    }
                } else {
                    let c = components[0]
                    let first = mcuRow * c.v, last = min(first + c.v, c.heightInBlocks)
                    guard first < last else { continue }
                    for row in first..<last {
                        let rowStart = bases[0].offset(row: row, column: 0)
                        for column in 0..<c.widthInBlocks {
                            startMCU(restart)
                            block(0, bases[0].pointer + rowStart + column * 64)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private mutating func startMCU(_ restart: (Int) -> Void) {
        guard restartInterval > 0 else { return }
        if restartsToGo == 0 {
            restart(nextRestart)
            nextRestart = (nextRestart + 1) & 7
            restartsToGo = restartInterval
        }
        restartsToGo -= 1
    }

    /// A plane's storage as a pointer, with its geometry.
    struct Base {
        let pointer: UnsafePointer<Int16>
        let plane: JPEGCoefficientPlane
        @inline(__always)
        func offset(row: Int, column: Int) -> Int { plane.offset(row: row, column: column) }
    }

    private static func withBases(_ planes: [JPEGCoefficientPlane], _ indices: [Int], _ acc: [Base], _ body: ([Base]) -> Void) {
        guard let first = indices.first else { return body(acc) }
        let plane = planes[first]
        plane.coefficients.withUnsafeBufferPointer { buffer in
            guard let pointer = buffer.baseAddress else { return }
            withBases(planes, Array(indices.dropFirst()), acc + [Base(pointer: pointer, plane: plane)], body)
        }
    }
}
