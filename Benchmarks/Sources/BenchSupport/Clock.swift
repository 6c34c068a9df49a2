#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock.
@inlinable @inline(__always)
public func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Nanoseconds of CPU time used by every thread of the process (so a decode's helper threads
/// count too).
@inlinable @inline(__always)
public func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Keeps results observable so that the optimiser cannot drop a decode.
nonisolated(unsafe) public var blackhole: UInt64 = 0

@inline(never)
public func consume(_ pixels: [UInt8]) {
    blackhole &+= UInt64(pixels.count) &+ UInt64(pixels.last ?? 0)
}
