import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`): every connection holds one.
/// Many systems start processes with a soft limit of 1,024 under a far higher hard limit; a
/// server that means to hold many connections raises its soft limit to the hard one at start.
public enum FileDescriptorLimit {
    /// The soft and hard limits now.
    public static var current: (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
        return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
    }

    /// Raises the soft limit to at least `wanted` descriptors (the hard limit by default). When
    /// the hard limit is lower, it is raised too where the process may (root, up to the
    /// kernel's `fs.nr_open`); otherwise the soft limit stops at the hard one. Returns the soft
    /// limit in effect afterwards.
    @discardableResult
    public static func raise(to wanted: Int? = nil) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = rlim_t(wanted ?? Int(clamping: limit.rlim_max))
        if target > limit.rlim_max {
            var higher = limit
            higher.rlim_max = min(target, rlim_t(kernelMaximum))
            higher.rlim_cur = higher.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &higher) == 0 { return Int(clamping: higher.rlim_cur) }
        }
        if limit.rlim_cur < min(target, limit.rlim_max) {
            limit.rlim_cur = min(target, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current.soft
    }

    /// `fs.nr_open`: the most any process may be allowed (1,048,576 by default).
    static var kernelMaximum: Int {
        let text = (try? String(contentsOfFile: "/proc/sys/fs/nr_open", encoding: .utf8)) ?? ""
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1_048_576
    }
}
