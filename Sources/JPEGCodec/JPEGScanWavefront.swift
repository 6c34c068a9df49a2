import CodecCore

/// The scans of a buffered file (progressive, or sequential with several scans) decoded at once
/// on several threads, each following the earlier scans it depends on at a distance.
///
/// Scans are coded independently (T.81 G.1.1: each has its own tables, restarts and end-of-band
/// runs; a refinement scan reads only its own component's earlier bits), so what orders them is
/// the coefficients they share: a scan depends on an earlier scan that may write or read some of
/// the same coefficients of a component (overlapping spectral bands, G.1.1.1, widened where
/// corrupt data carries a Huffman-coded scan past its band, as libjpeg lets it; for a
/// thumbnail's component kept as a subset, ``JPEGCoefficientSubset``, any two scans of it, as
/// both rewrite its record). A scan decoding a block needs only that block's earlier scans to have decoded it,
/// so it runs one MCU row at a time, waiting on a ``ProgressBoard`` until every scan it depends
/// on is past that row. Scans of different components, and the DC and AC scans of one, run side
/// by side; a chain of refinements of one component runs as a wavefront.
///
/// Threads take the scans in turn (``WorkerPool/concurrentForEach(count:maxThreads:_:)``), longest
/// chain first: a scan's rank is its estimated work (blocks × coefficients of its band) plus the
/// largest rank among the scans that depend on it, the order of list scheduling. In libjpeg's
/// default script the luma's 6–63 band then follows its 1–5 band closely, and its two
/// refinements run side by side as a wavefront, instead of the last refinement alone at the end.
/// A scan's rank exceeds that of every scan depending on it, so a scan waits only on scans taken
/// before it: the earliest unfinished scan in that order is always running and never waits, and
/// there is no deadlock, whatever number of threads the pool gives.
struct JPEGScanWavefront {
    /// One scan to decode: its decoder, header, and the earlier scans (indices into the list)
    /// it depends on.
    struct Task {
        var decoder: JPEGScanDecoder
        let header: JPEGScanHeader
        var dependencies: [Int] = []
    }

    /// The scans, in file order.
    private(set) var tasks: [Task]
    /// The order in which threads take them (indices into ``tasks``).
    let order: [Int]
    private let frame: JPEGFrameHeader

    /// The scans to decode, in file order, with their dependencies; `subsets` says which
    /// components keep a subset of their coefficients.
    init(tasks: [Task], frame: JPEGFrameHeader, subsets: [Bool]) {
        self.frame = frame
        var tasks = tasks
        for j in tasks.indices {
            tasks[j].dependencies = (0..<j).filter { Self.conflict(tasks[$0].header, tasks[j].header, frame, subsets) }
        }
        var rank = tasks.map { Self.work($0.header, frame) }
        for j in tasks.indices.reversed() {
            for i in tasks[j].dependencies { rank[i] = max(rank[i], Self.work(tasks[i].header, frame) + rank[j]) }
        }
        order = tasks.indices.sorted { rank[$0] != rank[$1] ? rank[$0] > rank[$1] : $0 < $1 }
        self.tasks = tasks
    }

    /// A scan's estimated work: the blocks it covers times the coefficients of its band.
    private static func work(_ scan: JPEGScanHeader, _ frame: JPEGFrameHeader) -> Int {
        let blocks = scan.components.reduce(0) { $0 + frame.components[$1.index].blocksPerLine * frame.components[$1.index].blockRows }
        let band = frame.isProgressive ? max(scan.se - scan.ss, 0) + 1 : 64
        return max(blocks * band, 1)
    }

    /// Whether two scans may write or read some of the same coefficients of a component.
    private static func conflict(_ a: JPEGScanHeader, _ b: JPEGScanHeader, _ frame: JPEGFrameHeader, _ subsets: [Bool]) -> Bool {
        let reachA = reach(a, frame), reachB = reach(b, frame)
        return a.components.contains { ca in
            b.components.contains { cb in ca.index == cb.index && (subsets[ca.index] || reachA.overlaps(reachB)) }
        }
    }

    /// The zigzag positions a scan may write or read: its band Ss…Se, and past Se where corrupt
    /// data leads a Huffman-coded scan, as libjpeg's: a first AC scan's run may carry a
    /// coefficient up to 15 positions beyond Se (G.1.2.2), a refinement's new coefficient one
    /// beyond (G.1.2.3); positions from 64 on stand for 63 (``naturalOrder``). Sequential scans
    /// code whole blocks, whatever Ss and Se say.
    private static func reach(_ scan: JPEGScanHeader, _ frame: JPEGFrameHeader) -> ClosedRange<Int> {
        guard frame.isProgressive else { return 0...63 }
        guard scan.ss > 0 else { return 0...0 }
        let overshoot = scan.ah == 0 ? 15 : 1
        return scan.ss...min(max(scan.ss, scan.se) + overshoot, 63)
    }

    /// Decodes every scan as far as `input` goes into `store`, on up to `maxThreads` threads.
    mutating func run(_ input: InputBuffer, into store: JPEGBlockStore, maxThreads: Int) {
        let board = ProgressBoard(pieces: tasks.count)
        let frame = frame
        let order = order
        tasks.withUnsafeMutableBufferPointer { all in
            let tasks = UnsafeMutableBufferPointerBox(all)
            WorkerPool.shared.concurrentForEach(count: order.count, maxThreads: maxThreads) { turn in
                let i = order[turn]
                Self.decode(&tasks.pointer[i], index: i, frame, input, store, board)
            }
        }
    }

    /// Decodes one scan a row of MCUs at a time, each once the scans it depends on have
    /// published the frame MCU rows it covers, and publishes its own progress in frame MCU rows
    /// (a one-component scan's row of blocks is a `v`-th of one).
    private static func decode(_ task: inout Task, index: Int, _ frame: JPEGFrameHeader, _ input: InputBuffer,
                               _ store: JPEGBlockStore, _ board: ProgressBoard) {
        defer { board.publish(index, count: ProgressBoard.finished) }
        let perLine = task.decoder.mcusPerLine
        let blockRowsPerMCURow = task.header.components.count == 1 ? frame.components[task.header.components[0].index].v : 1
        while !task.decoder.isFinished {
            let row = task.decoder.nextMCU / perLine
            board.wait(for: task.dependencies, atLeast: row / blockRowsPerMCURow + 1)
            let before = task.decoder.nextMCU
            _ = task.decoder.decode(input, into: store, until: (row + 1) * perLine)
            guard task.decoder.nextMCU > before else { return }
            board.publish(index, count: task.decoder.nextMCU / perLine / blockRowsPerMCURow)
        }
    }
}

/// A buffer pointer handed to the threads of one ``JPEGScanWavefront/run(_:into:maxThreads:)``,
/// each of which changes only its own element.
private struct UnsafeMutableBufferPointerBox: @unchecked Sendable {
    let pointer: UnsafeMutableBufferPointer<JPEGScanWavefront.Task>

    init(_ pointer: UnsafeMutableBufferPointer<JPEGScanWavefront.Task>) {
        self.pointer = pointer
    }
}

extension JPEGPixelDecoder {
    /// Every scan not yet decoded, at once (``JPEGScanWavefront``): called when all of them have
    /// arrived (the file has ended, or its input is final), so each is decoded to its end. The
    /// state afterwards is what decoding them one after another leaves.
    func decodeScansAtOnce(_ container: JPEGContainer, _ input: InputBuffer) throws(DecodingError) {
        var tasks: [JPEGScanWavefront.Task] = []
        var firstScans = 0
        for index in scanIndex..<container.scans.count {
            let info = container.scans[index]
            if let resumed = scan, index == scanIndex {
                tasks.append(.init(decoder: resumed, header: info.header))
            } else {
                if frame.isProgressive { progression.begin(info.header) }
                if readsNoCoefficient(of: info.header) { continue }
                tasks.append(.init(decoder: try JPEGScanDecoder(frame: frame, scan: info), header: info.header))
            }
            if info.header.ah == 0 { firstScans += 1 }
        }
        scan = nil
        scanIndex = container.scans.count
        let before = tasks.reduce(0) { $0 + $1.decoder.nextMCU }
        var wavefront = JPEGScanWavefront(tasks: tasks, frame: frame, subsets: coefficients.grid.keptCounts.map { $0 > 0 })
        coefficients.withStore { store in wavefront.run(input, into: store, maxThreads: maxThreads) }
        mcusDecoded += wavefront.tasks.reduce(0) { $0 + $1.decoder.nextMCU } - before
        firstScansFinished += firstScans
        if let last = wavefront.tasks.last { noteLastGood(last.decoder, last.header) }
    }
}
