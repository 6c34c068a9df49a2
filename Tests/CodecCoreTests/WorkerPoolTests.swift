@testable import CodecCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pool runs offered work on its threads up to its capacity and says no beyond it; the loop
/// gives every index once, whatever the thread count and however busy the pool.
struct WorkerPoolTests {
    @Test(arguments: [1, 2, 3, 8])
    func everyIndexOnce(maxThreads: Int) {
        let pool = WorkerPool(capacity: 3)
        let calls = Locked<[Int]>([])
        let threads = Locked<Set<String>>([])
        pool.concurrentForEach(count: 200, maxThreads: maxThreads) { index in
            calls.withLock { $0.append(index) }
            threads.withLock { _ = $0.insert(currentThread()) }
            usleep(100)
        }
        #expect(calls.withLock { $0 }.sorted() == Array(0..<200))
        #expect(threads.withLock { $0.count } <= maxThreads)
        if maxThreads == 1 { #expect(calls.withLock { $0 } == Array(0..<200)) }
    }

    @Test func busyPoolLeavesTheWorkToTheCaller() throws {
        let pool = WorkerPool(capacity: 1)
        let gate = Locked(false)
        let running = Locked(false)
        #expect(pool.tryStart {
            running.withLock { $0 = true }
            while !gate.withLock({ $0 }) { usleep(100) }
        })
        while !running.withLock({ $0 }) { usleep(100) }
        #expect(!pool.tryStart {})
        let caller = currentThread()
        let threads = Locked<Set<String>>([])
        pool.concurrentForEach(count: 20, maxThreads: 4) { _ in
            threads.withLock { _ = $0.insert(currentThread()) }
        }
        #expect(threads.withLock { $0 } == [caller])
        gate.withLock { $0 = true }
        let done = Locked(false)
        var offered = false
        for _ in 0..<10_000 where !offered {
            offered = pool.tryStart { done.withLock { $0 = true } }
            if !offered { usleep(100) }
        }
        #expect(offered)
        while offered && !done.withLock({ $0 }) { usleep(100) }
    }

    /// Callers at work hold cores: with capacity 1 (two processors), one caller leaves the
    /// pool's thread a core, two fill the machine and the pool says no until one leaves.
    @Test func occupyingCallersFillTheCores() {
        let pool = WorkerPool(capacity: 1)
        let ran = Locked(0)
        pool.occupying {
            #expect(pool.hasFreeThread)
            pool.occupying {
                #expect(!pool.hasFreeThread)
                #expect(!pool.tryStart { ran.withLock { $0 += 1 } })
                let threads = Locked<Set<String>>([])
                pool.concurrentForEach(count: 8, maxThreads: 2) { _ in threads.withLock { _ = $0.insert(currentThread()) } }
                #expect(threads.withLock { $0 } == [currentThread()])
            }
            #expect(pool.tryStart { ran.withLock { $0 += 1 } })
        }
        while ran.withLock({ $0 }) == 0 { usleep(100) }
        #expect(ran.withLock { $0 } == 1)
    }

    @Test func emptyAndSingleLoops() {
        let pool = WorkerPool(capacity: 2)
        let calls = Locked(0)
        pool.concurrentForEach(count: 0, maxThreads: 4) { _ in calls.withLock { $0 += 1 } }
        pool.concurrentForEach(count: 1, maxThreads: 4) { _ in calls.withLock { $0 += 1 } }
        #expect(calls.withLock { $0 } == 1)
    }
}

/// The calling thread, as a name that can be compared.
private func currentThread() -> String { "\(pthread_self())" }
