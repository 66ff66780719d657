import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A long-running `chirp` client command (such as `watch`) as a child process whose output
/// (standard output and error together) goes to a file the test can poll.
public final class ChirpProcess: @unchecked Sendable {
    public let process: SpawnedProcess
    private let outputURL: URL

    /// Starts `chirp ARGUMENTS` with `environment` added to the inherited one.
    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        outputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-client-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process = try SpawnedProcess(
            executable: ServerProcess.binaryURL, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
            output: output.fileDescriptor)
    }

    /// Everything printed so far.
    public var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Printed lines so far.
    public var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// Waits until the output satisfies `condition` (true) or `timeout` passes (false).
    public func waitFor(timeout: Duration = .seconds(10), _ condition: (String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(output) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition(output)
    }

    /// Sends a signal and waits for the process to exit (killing it after 30 s), off the
    /// cooperative pool (`BlockingCall`); returns false when it did not end by the signal given.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) async -> Bool {
        process.signal(signal)
        let process = self.process
        return await BlockingCall.run { process.waitUntilExit(killingAfter: .seconds(30)) }
    }

    deinit {
        if process.isRunning {
            process.signal(SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputURL)
    }
}
