import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records a crash as a fatal log entry for the next run: for SIGSEGV, SIGILL, SIGTRAP, SIGABRT
/// and SIGBUS, a handler writes a line prepared in advance to a file opened in advance (one
/// `write`, which is async-signal-safe: no allocation, no lock), then hands the signal to
/// whatever handled it before (the Swift runtime's backtracer, or the default action) and
/// raises it again, so the process still dies of it.
///
/// Each process writes to `crash-<pid>.jsonl` in the directory; an orderly exit removes the
/// file (`uninstall()`). The next run's `collect(in:)` turns the lines a crashed process left
/// into entries (timestamped with the file's modification time, the moment of the crash) and
/// deletes the files of processes no longer running.
///
/// ```swift
/// try CrashSignalRecorder.install(in: logsDirectory, source: "chirp")
/// for entry in CrashSignalRecorder.collect(in: logsDirectory) { logs.log(entry) }
/// ```
public enum CrashSignalRecorder {
    /// The signals caught.
    public static let signals: [Int32] = [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS]

    /// What a crashed process left: a line per caught signal.
    struct Record: Codable {
        var signal: String
        var message: String
        var pid: Int32
        var command: String
        var source: String
    }

    /// Installs the handlers for this process (once; later calls do nothing).
    public static func install(in directory: URL, source: String) throws {
        guard crashFile == -1 else { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pid = getpid()
        let url = fileURL(in: directory, pid: pid)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        let command = CommandLine.arguments.prefix(3).map { ($0 as NSString).lastPathComponent }.joined(separator: " ")
        lines = .allocate(capacity: slots)
        lengths = .allocate(capacity: slots)
        previous = .allocate(capacity: slots)
        for index in 0..<slots {
            lines[index] = nil
            lengths[index] = 0
        }
        for signal in signals where Int(signal) < slots {
            let record = Record(
                signal: name(of: signal), message: "the process crashed: \(name(of: signal)) (\(describe(signal)))",
                pid: pid, command: command, source: source)
            var data = (try? JSONEncoder().encode(record)) ?? Data()
            data.append(UInt8(ascii: "\n"))
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: data.count)
            data.copyBytes(to: buffer, count: data.count)
            lines[Int(signal)] = buffer
            lengths[Int(signal)] = data.count
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = crashSignalHandler
            #else
                action.__sigaction_u.__sa_handler = crashSignalHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, previous + Int(signal))
        }
        crashDirectory = directory.path
        crashFile = fd
    }

    /// Restores the earlier handlers and removes this process's (empty) crash file: for an
    /// orderly exit.
    public static func uninstall() {
        guard crashFile >= 0 else { return }
        for signal in signals where Int(signal) < slots { sigaction(signal, previous + Int(signal), nil) }
        close(crashFile)
        crashFile = -1
        if let directory = crashDirectory {
            try? FileManager.default.removeItem(at: fileURL(in: URL(fileURLWithPath: directory), pid: getpid()))
        }
    }

    /// The crashes that processes no longer running left in `directory`, as fatal entries;
    /// their files are deleted (so each crash is collected once).
    public static func collect(in directory: URL) -> [LogEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var entries: [LogEntry] = []
        for name in names.sorted() where name.hasPrefix("crash-") && name.hasSuffix(".jsonl") {
            let pidText = name.dropFirst("crash-".count).dropLast(".jsonl".count)
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if kill(pid, 0) == 0 { continue }  // still running
            let url = directory.appendingPathComponent(name)
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date()
            if let data = try? Data(contentsOf: url) {
                for raw in data.split(separator: UInt8(ascii: "\n")) {
                    guard let record = try? JSONDecoder().decode(Record.self, from: Data(raw)) else { continue }
                    entries.append(
                        LogEntry(
                            level: .fatal, message: record.message, timestamp: modified,
                            metadata: ["signal": record.signal, "pid": String(record.pid), "command": record.command],
                            source: record.source))
                }
            }
            try? FileManager.default.removeItem(at: url)
        }
        return entries
    }

    static func fileURL(in directory: URL, pid: Int32) -> URL {
        directory.appendingPathComponent("crash-\(pid).jsonl")
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        default: "signal \(signal)"
        }
    }

    static func describe(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "invalid memory access"
        case SIGILL, SIGTRAP: "a runtime check failed, such as a forced unwrap of nil or an index out of range"
        case SIGABRT: "aborted"
        case SIGBUS: "bus error"
        default: "fatal signal"
        }
    }
}

// State read by the signal handler: plain pointers and integers, set before the handlers are
// installed and never freed, so the handler touches no Swift object, lock or allocator.
private let slots = 32
nonisolated(unsafe) private var crashFile: Int32 = -1
nonisolated(unsafe) private var crashDirectory: String?
nonisolated(unsafe) private var lines: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?> = .allocate(capacity: 1)
nonisolated(unsafe) private var lengths: UnsafeMutablePointer<Int> = .allocate(capacity: 1)
nonisolated(unsafe) private var previous: UnsafeMutablePointer<sigaction> = .allocate(capacity: 1)

/// Writes the prepared line, restores the earlier handler and raises the signal again.
private func crashSignalHandler(_ signal: Int32) {
    let index = Int(signal)
    if crashFile >= 0, index < slots, let line = lines[index] {
        _ = write(crashFile, line, lengths[index])
        _ = fsync(crashFile)
    }
    if index < slots { sigaction(signal, previous + index, nil) }
    raise(signal)
}
