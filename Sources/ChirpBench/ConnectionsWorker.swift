import ArgumentParser
import ChirpCommandSupport
import ChirpServer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp bench connections-worker` (hidden): one of the client processes of `chirp bench
/// connections --workers N`, each holding its share of the streams (a process may hold no more
/// descriptors than its hard limit). It opens streams `--first` ..< `--first + --count` of the
/// run as the bench would, prints a `ConnectionsWorkerStatus` line once they are open, then
/// answers the commands on its stdin (`ConnectionsWorkerStatus.Command`).
struct ConnectionsWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "connections-worker", shouldDisplay: false)

    @Option(help: "JSON file of the seeded accounts ([{name, token}], in order).") var accounts: String
    @Option(help: "A server to connect to (repeatable; stream i goes to server i % count).") var server: [String]
    @Option(help: "The run's first stream this worker opens.") var first: Int
    @Option(help: "Streams this worker opens.") var count: Int
    @Option var streamsPerUser: Int
    @Option var perAddress: Int
    @Option var inFlight: Int
    @Option(help: "The run's start, in nanoseconds of CLOCK_MONOTONIC (LoadClock).") var clockStart: UInt64

    func run() async throws {
        let wanted = count + 100
        let limit = FileDescriptorLimit.raise(to: wanted)
        guard limit >= wanted else {
            throw CommandFailure("\(count) streams need \(wanted) open files, and this worker may have \(limit)")
        }
        let seeded = try JSONDecoder().decode(
            [ConnectionBenchSeeder.Account].self, from: Data(contentsOf: URL(fileURLWithPath: accounts)))
        let servers = try server.map {
            StreamOpening.Server(try URL(string: $0).orThrow("--server takes a URL, not \($0)"))
        }
        let clock = LoadClock(start: clockStart)
        let delivery = LatencyRecorder()
        let label = "bench worker of streams \(first)-\(first + count - 1)"
        // A worker only opens and listens: the bench sends.
        let plan = ConnectionsPlan(
            accounts: seeded.map { BenchAccount(name: $0.name, token: $0.token) }, count: first + count,
            streamsPerUser: streamsPerUser,
            perAddress: perAddress, inFlight: inFlight, rate: 0, seconds: 0, senders: 0)
        let opening = try await StreamOpening(
            servers: servers, plan: plan, range: first..<(first + count), clock: clock, delivery: delivery,
            progress: { FileHandle.standardError.write(Data("\(label): \($0)\n".utf8)) }
        ).run()
        let channels = opening.channels
        let end = clock.microseconds()
        func status(withDeliveries: Bool = false) -> ConnectionsWorkerStatus {
            ConnectionsWorkerStatus(
                opened: channels.count, failed: opening.failed, retried: opening.retried,
                firstFailure: opening.firstFailure,
                openingStartMicroseconds: end - Int64(opening.seconds * 1e6), openingEndMicroseconds: end,
                held: channels.filter(\.isActive).count, delivered: Int(delivery.count),
                residentBytes: ProcessFigures.residentBytes(pid: getpid()),
                deliveries: withDeliveries ? delivery.recorded : nil)
        }
        try Self.emit(status())
        for await line in Self.standardInputLines() {
            switch ConnectionsWorkerStatus.Command(rawValue: line) {
            case .status:
                try Self.emit(status())
            case .report:
                try Self.emit(status(withDeliveries: true))
                try await StreamOpening.close(channels)
                return
            case nil:
                FileHandle.standardError.write(Data("\(label): unknown command \(line)\n".utf8))
            }
        }
        // The bench went away: close and end.
        try await StreamOpening.close(channels)
    }

    private static func emit(_ status: ConnectionsWorkerStatus) throws {
        FileHandle.standardOutput.write(try JSONEncoder().encode(status) + Data("\n".utf8))
    }

    /// The lines of stdin, read on a thread of their own (a blocking read must not hold one of
    /// the concurrency pool's threads); ends at end of file.
    private static func standardInputLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        return lines
    }
}
