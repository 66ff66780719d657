import AsyncHTTPClient
import ChirpCommandSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `chirp` child process (this same binary, or another build of it) that prints a "listening
/// on" line: the server under load runs in its own process, so its RSS and CPU are its own.
final class ChildServer: @unchecked Sendable {
    let process = Process()
    let baseURL: URL
    private let outputURL: URL
    /// A directory the child works in that is removed once it has stopped.
    private let ownedDirectory: URL?

    /// Starts `chirp ARGUMENTS` (`executable`, or this binary) and waits (up to 60 s) for its
    /// listening line; `ownedDirectory` (its data directory, say) is removed when it stops.
    init(executable: URL? = nil, arguments: [String], ownedDirectory: URL? = nil) async throws {
        self.ownedDirectory = ownedDirectory
        outputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-child-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        process.executableURL = executable ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let prefix = "chirp: listening on "
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
                let url = URL(string: String(line.dropFirst(prefix.count).prefix { !$0.isWhitespace }))
            {
                baseURL = url
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        throw CommandFailure(
            "the child server did not start: \((try? String(contentsOf: outputURL, encoding: .utf8)) ?? "")")
    }

    /// How the process ended, with the last lines it printed, if it ended before `stop()`; nil
    /// while it runs. A bench whose server died says so, not just that every connection failed.
    var unexpectedEnd: String? {
        guard !process.isRunning else { return nil }
        let how =
            process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        // A crash's backtrace names the crashed thread's frames long before its last lines
        // (registers, images): those frames first, then the end.
        let crashed =
            lines.firstIndex { $0.contains(" crashed:") }.map {
                lines[$0...].prefix(40).joined(separator: "\n") + "\n…\n"
            } ?? ""
        let tail = lines.suffix(20).joined(separator: "\n")
        return "the server (pid \(process.processIdentifier)) \(how) during the bench; its output:\n\(crashed)\(tail)"
    }

    /// The process's resident memory in bytes.
    var residentBytes: Int? { ProcessFigures.residentBytes(pid: process.processIdentifier) }

    /// CPU time the process has used so far, user and system, in seconds.
    var cpuSeconds: Double? { ProcessFigures.cpuSeconds(pid: process.processIdentifier) }

    /// A counter or gauge from the server's `/metrics`, nil when it cannot be read.
    func metric(_ name: String) async -> Double? {
        guard
            let response = try? await HTTPClient.shared.execute(
                HTTPClientRequest(url: baseURL.absoluteString + "/metrics"), timeout: .seconds(10)),
            let body = try? await response.body.collect(upTo: 1 << 24)
        else { return nil }
        let line = String(buffer: body).split(separator: "\n").first {
            $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{")
        }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// `metric(name)` summed over `servers`, nil when one cannot be read.
    static func total(_ name: String, of servers: [ChildServer]) async -> Double? {
        var sum = 0.0
        for server in servers {
            guard let value = await server.metric(name) else { return nil }
            sum += value
        }
        return sum
    }

    /// Stops the process (SIGTERM, then SIGKILL after 10 s) and removes its owned directory.
    func stop(signal: Int32 = SIGTERM) async {
        if process.isRunning {
            kill(process.processIdentifier, signal)
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputURL)
        if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
    }
}
