import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `chirp serve` child process on a free loopback port, for tests about restarts,
/// signals and crashes, and for client integration tests. The binary is `$CHIRP_BINARY`, or
/// `.build/debug/chirp` of this package (`swift build` makes it; `.ci/run` builds first).
public final class ServerProcess: @unchecked Sendable {
    /// Why a server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let process: SpawnedProcess
    public let port: Int
    public let dataDirectory: URL
    private let outputURL: URL

    /// Where the `chirp` binary is looked for.
    public static var binaryURL: URL {
        if let path = ProcessInfo.processInfo.environment["CHIRP_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/chirp")
    }

    /// A fresh directory path under the temporary directory (in a test process, the run's own,
    /// removed when the process exits: see `CChirpTestRun`).
    public static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("chirp-test-\(UUID().uuidString)")
    }

    /// Starts `chirp serve` on `port` (0: one of `TestServerPorts`, the next one if that is
    /// taken) and `dataDirectory`, and waits for its "listening" line. A restart on a given
    /// port that finds it still held (by a socket the killed server left) is tried again for
    /// up to 10 s.
    public convenience init(
        dataDirectory: URL = ServerProcess.temporaryDirectory(), port requestedPort: Int = 0, arguments: [String] = []
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                try await self.init(
                    starting: dataDirectory, port: requestedPort == 0 ? TestServerPorts.next() : requestedPort,
                    arguments: arguments)
                return
            } catch let error as StartError
                where error.description.contains("Address already in use") && ContinuousClock.now < deadline
            {
                if requestedPort != 0 { try await Task.sleep(for: .milliseconds(200)) }
            }
        }
    }

    private init(starting dataDirectory: URL, port requestedPort: Int, arguments: [String]) async throws {
        let binary = Self.binaryURL
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw StartError(
                description: "no chirp binary at \(binary.path): run `swift build` first or set CHIRP_BINARY")
        }
        self.dataDirectory = dataDirectory
        outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-out-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process = try SpawnedProcess(
            executable: binary,
            arguments: [
                "serve", "--port", String(requestedPort), "--data-dir", dataDirectory.path, "--log-level", "warning",
                // Tests register many accounts from 127.0.0.1; a test of the limit passes its own (the last wins).
                "--account-limit", "10000/1h",
                // bcrypt at cost 10 was a tenth of the test run's CPU time, in these children.
                "--test-bcrypt-cost", "4",
            ] + arguments,
            environment: ProcessInfo.processInfo.environment, output: output.fileDescriptor)
        let prefix =
            arguments.contains("--tls-cert")
            ? "chirp: listening on https://127.0.0.1:" : "chirp: listening on http://127.0.0.1:"
        let deadline = ContinuousClock.now + .seconds(60)
        var found: Int?
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                found = Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard let found else {
            process.signal(SIGKILL)
            throw StartError(
                description: "server did not start: \((try? String(contentsOf: outputURL, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Everything the process printed.
    public var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Sends a signal and waits (up to 30 s, then SIGKILL) for the process to exit; returns its
    /// exit status.
    @discardableResult
    public func stop(signal: Int32) async throws -> Int32 {
        process.signal(signal)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            process.signal(SIGKILL)
            throw StartError(description: "server ignored signal \(signal) for 30 s")
        }
        return process.terminationStatus
    }

    deinit {
        try? FileManager.default.removeItem(at: outputURL)
    }
}

/// Runs the `chirp` binary to completion; returns its exit status and everything it printed
/// (standard output and standard error together). `input` is written to its standard input;
/// `environment` adds to the inherited one. It waits by polling, never by blocking a thread:
/// the tests share a cooperative pool of one thread per core, and a command that takes a
/// second or two (a client run ends by sending its error reports) would stall every test.
/// A command still running after `limit` is killed, and its output says so: a client retrying
/// forever against a server that is gone must fail its test, not hold the whole run.
public func runChirp(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:], limit: Duration = .seconds(120)
) async throws -> (status: Int32, output: String) {
    let outputURL = ServerProcess.temporaryDirectory().appendingPathExtension("out")
    FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let output = try FileHandle(forWritingTo: outputURL)
    let stdin = Pipe()
    let process = try SpawnedProcess(
        executable: ServerProcess.binaryURL, arguments: arguments,
        environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
        input: stdin.fileHandleForReading.fileDescriptor, output: output.fileDescriptor)
    try? output.close()
    try? stdin.fileHandleForReading.close()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    let killed = try await waitForExit(of: process, limit: limit, pollingEvery: .milliseconds(5))
    let printed = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
    return (process.terminationStatus, printed + (killed ? killedNote(arguments, limit) : ""))
}

/// Polls until `process` exits; kills it once `limit` has passed. Returns whether it was killed.
func waitForExit(of process: SpawnedProcess, limit: Duration, pollingEvery interval: Duration) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while process.isRunning {
        if ContinuousClock.now >= deadline {
            process.signal(SIGKILL)
            while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
            return true
        }
        try await Task.sleep(for: interval)
    }
    return false
}

/// What a killed command's output ends with.
func killedNote(_ arguments: [String], _ limit: Duration) -> String {
    "\n[test support: `chirp \(arguments.joined(separator: " "))` was still running after \(limit) and was killed]\n"
}

/// `runChirp` for async tests: waits for the process by polling, so a long run (a bench, the
/// durability check) does not hold one of the few cooperative threads the other tests share.
public func runChirpInBackground(
    _ arguments: [String], environment: [String: String] = [:], limit: Duration = .seconds(300)
) async throws -> (status: Int32, output: String) {
    let run = try ChirpProcess(arguments, environment: environment)
    let killed = try await waitForExit(of: run.process, limit: limit, pollingEvery: .milliseconds(50))
    return (run.process.terminationStatus, run.output + (killed ? killedNote(arguments, limit) : ""))
}
