#if canImport(Glibc)
import Glibc
#endif

/// Storage for whole images. A decoder's output is written once, front to back, right after it
/// is allocated, so its cost is mostly the kernel's first-touch faults, one per 4 KiB page
/// (8,400 for an 8.6 MP RGBA image). On Linux a buffer of at least ``hugePageThreshold`` bytes
/// is advised as transparent huge pages (`madvise(MADV_HUGEPAGE)`, honoured when
/// `/sys/kernel/mm/transparent_hugepage/enabled` is `always` or `madvise`), so the aligned
/// middle of it faults in 2 MiB at a time.
package enum PixelStorage {
    package static let hugePageThreshold = 4 << 20

    /// Buffers at least this large are zeroed in bands on several threads when asked.
    static let zeroingBand = 4 << 20

    /// `count` bytes, zeroed or left as the allocator gives them. Zeroing (and so the first-touch
    /// faults) runs in bands of ``zeroingBand`` bytes on up to `maxThreads` threads.
    package static func make(count: Int, zeroed: Bool, maxThreads: Int = 1) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count >= hugePageThreshold, let base = buffer.baseAddress { adviseHugePages(base, count: count) }
            if zeroed && count > 0 {
                let base = buffer.baseAddress!, bands = (count + zeroingBand - 1) / zeroingBand
                WorkerPool.shared.concurrentForEach(count: bands, maxThreads: maxThreads) { band in
                    let start = band * zeroingBand
                    (base + start).initialize(repeating: 0, count: min(zeroingBand, count - start))
                }
            }
            initialized = count
        }
    }

    private static func adviseHugePages(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
        #if os(Linux)
        let huge = 2 << 20
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + count) & ~(huge - 1)
        guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(p, end - start, MADV_HUGEPAGE)
        #endif
    }
}
