@testable import CodecCore
import Testing

/// A piece waiting on another sees every write made before the count it waited for, and a
/// finished piece releases every wait.
struct ProgressBoardTests {
    @Test func waitersSeeWhatWasPublished() {
        let board = ProgressBoard(pieces: 2)
        let written = Locked<[Int]>([])
        let seen = Locked<[Int]>([])
        WorkerPool(capacity: 1).concurrentForEach(count: 2, maxThreads: 2) { piece in
            if piece == 0 {
                for row in 0..<200 {
                    written.withLock { $0.append(row) }
                    board.publish(0, count: row + 1)
                }
            } else {
                for row in 0..<200 {
                    board.wait(for: [0], atLeast: row + 1)
                    seen.withLock { $0.append(written.withLock { $0.count } > row ? row : -1) }
                }
            }
        }
        #expect(seen.withLock { $0 } == Array(0..<200))
    }

    @Test func finishedSatisfiesEveryWait() {
        let board = ProgressBoard(pieces: 3)
        board.publish(1, count: ProgressBoard.finished)
        board.publish(2, count: 5)
        board.wait(for: [1, 2], atLeast: 5)
        board.wait(for: [], atLeast: 1_000)
        board.publish(2, count: 3)
        board.wait(for: [2], atLeast: 5)
    }
}
