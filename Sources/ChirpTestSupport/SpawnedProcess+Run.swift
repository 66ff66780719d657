import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension SpawnedProcess {
    /// What a program that ran to completion printed, and how it ended.
    public struct Completion: Sendable {
        public let status: Int32
        public let reason: TerminationReason
        /// Its standard output and error, together.
        public let output: String
    }

    /// Runs `executable` with `arguments` to completion (killed after `limit`), with the test
    /// process's environment and `/dev/null` as standard input, polling without blocking a
    /// thread of the cooperative pool. For tools a test needs (`tar`, `pg_dump`): the tests
    /// start no process any other way (Foundation's `Process` crashed a test run once, copying
    /// the environment while another thread changed it, and leaves children behind on a crash).
    public static func run(
        _ executable: URL, _ arguments: [String], limit: Duration = .seconds(120)
    ) async throws -> Completion {
        let outputURL = ServerProcess.temporaryDirectory().appendingPathExtension("out")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let handle = try FileHandle(forWritingTo: outputURL)
        let process = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment,
            output: handle.fileDescriptor)
        try? handle.close()
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            if ContinuousClock.now >= deadline { process.signal(SIGKILL) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        let printed = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return Completion(status: process.terminationStatus, reason: process.terminationReason, output: printed)
    }
}
