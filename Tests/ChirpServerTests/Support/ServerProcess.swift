import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real `chirp serve` child process on a loopback port, for tests about restarts, signals
/// and crashes. The binary is `$CHIRP_BINARY`, or `.build/debug/chirp` of this package
/// (`swift build` makes it; `.ci/run` builds before testing).
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let outputURL: URL

    static var binaryURL: URL {
        if let path = ProcessInfo.processInfo.environment["CHIRP_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/chirp")
    }

    /// Starts the server and waits for its "listening" line.
    init(dataDirectory: URL, arguments: [String] = []) async throws {
        let binary = Self.binaryURL
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "no chirp binary at \(binary.path): run `swift build` first or set CHIRP_BINARY")
        outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-out-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--data-dir", dataDirectory.path, "--log-level", "warning"] + arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        var found: Int?
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("chirp: listening on http://127.0.0.1:") }) {
                let rest = line.dropFirst("chirp: listening on http://127.0.0.1:".count)
                found = Int(rest.prefix { $0.isNumber })
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard let found else {
            process.terminate()
            let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
            Issue.record("server did not start: \(text)")
            throw CancellationError()
        }
        port = found
    }

    var api: APIHarness { APIHarness(port: port) }

    /// Everything the process printed.
    var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Sends a signal and waits for the process to exit; returns its exit status.
    @discardableResult
    func stop(signal: Int32) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("server ignored signal \(signal) for 30 s")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: outputURL)
    }
}
