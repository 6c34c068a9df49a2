#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The processors the system has online, for the default of an options' `maxThreads`.
package enum ProcessorCount {
    /// At least 1, at most `cap`.
    package static func online(cappedAt cap: Int) -> Int {
        let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return min(max(Int(count), 1), max(cap, 1))
    }
}
