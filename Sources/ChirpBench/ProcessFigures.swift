import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a process costs, read from `/proc` (Linux): a child server's, or a bench worker's own;
/// and what the calling thread has cost.
enum ProcessFigures {
    /// Resident memory in bytes (`VmRSS` of `/proc/PID/status`).
    static func residentBytes(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// CPU time used so far, user and system, in seconds (`/proc/PID/stat`).
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (name)": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU time the calling thread has used so far, in seconds (CLOCK_THREAD_CPUTIME_ID): a
    /// measurement of work that runs on one thread without suspending.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
