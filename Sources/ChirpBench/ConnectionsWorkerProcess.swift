import ChirpCommandSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `chirp bench connections-worker` child process, seen from the bench: commands go to its
/// stdin, and the status lines it prints are read on a thread of their own and kept in order.
final class ConnectionsWorkerProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// Every status line so far, oldest first.
    private let statuses = Mutex<[ConnectionsWorkerStatus]>([])
    /// Why a line could not be read, if one could not.
    private let unreadable = Mutex<String?>(nil)
    /// Whether the reader has met the end of the worker's output (every line in `statuses`).
    private let outputEnded = Mutex(false)

    /// Starts `chirp bench connections-worker ARGUMENTS` (this binary); its stderr is the bench's.
    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["bench", "connections-worker"] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reading = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[pending.index(after: newline)...])
                    do {
                        let status = try JSONDecoder().decode(ConnectionsWorkerStatus.self, from: line)
                        statuses.withLock { $0.append(status) }
                    } catch {
                        unreadable.withLock {
                            $0 = "worker \(process.processIdentifier) printed a line that is no status: \(error)"
                        }
                    }
                }
            }
            outputEnded.withLock { $0 = true }
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Status lines received so far.
    var received: Int { statuses.withLock { $0.count } }

    /// Waits (up to `timeout`) for status line number `index` (from 0) and returns it.
    func status(_ index: Int, timeout: Duration) async throws -> ConnectionsWorkerStatus {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = statuses.withLock({ $0.count > index ? $0[index] : nil }) { return status }
            if let unreadable = unreadable.withLock({ $0 }) { throw CommandFailure(unreadable) }
            // A worker prints its last line and exits: it has ended without that line only once
            // the reader has read its output to the end (then every line it printed is above).
            if !process.isRunning, outputEnded.withLock({ $0 }) {
                if let status = statuses.withLock({ $0.count > index ? $0[index] : nil }) { return status }
                throw CommandFailure(
                    "worker \(pid) ended (status \(process.terminationStatus)) before its status line \(index + 1)")
            }
            guard ContinuousClock.now < deadline else {
                throw CommandFailure("worker \(pid) printed no status line \(index + 1) in \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends `command` and waits for the status line that answers it.
    func ask(_ command: ConnectionsWorkerStatus.Command, timeout: Duration = .seconds(60)) async throws
        -> ConnectionsWorkerStatus
    {
        let next = received
        try input.fileHandleForWriting.write(contentsOf: Data((command.rawValue + "\n").utf8))
        return try await status(next, timeout: timeout)
    }

    /// Waits up to `timeout` for the process to end, then kills it.
    func stop(timeout: Duration = .seconds(15)) async {
        try? input.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
