#if canImport(Glibc)
import Glibc
#endif
enum Knob {
    static func int(_ name: String, _ fallback: Int) -> Int {
        guard let v = getenv(name) else { return fallback }
        return Int(String(cString: v)) ?? fallback
    }
}
