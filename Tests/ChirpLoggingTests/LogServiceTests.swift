import ChirpLogging
import Foundation
import Testing

@Suite("LogService")
struct LogServiceTests {
    @Test func observersGetTheirLevelsInOrderOffTheCallersThread() {
        let service = LogService()
        let errors = CollectingObserver()
        let everything = CollectingObserver()
        service.register(errors, levels: [.error, .fatal])
        service.register(everything, levels: LogLevel.debug.andAbove)
        Thread.current.threadDictionary["caller"] = true
        defer { Thread.current.threadDictionary["caller"] = nil }
        for index in 0..<200 {
            service.log(index % 4 == 0 ? .error : .info, "entry \(index)")
        }
        service.flush()
        #expect(everything.received.map(\.message) == (0..<200).map { "entry \($0)" })
        #expect(errors.received.map(\.message) == stride(from: 0, to: 200, by: 4).map { "entry \($0)" })
        #expect(errors.alwaysOffCallerThread && everything.alwaysOffCallerThread)
    }

    @Test func manyThreadsLoggingAtOnceDeliverEveryEntryOnceInPerThreadOrder() {
        let service = LogService()
        let observer = CollectingObserver()
        service.register(observer, levels: [.warning])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<2_000 {
                service.log(.warning, "\(index)", metadata: ["thread": String(thread)])
            }
        }
        service.flush()
        let received = observer.received
        #expect(received.count == 16_000)
        for thread in 0..<8 {
            let own = received.filter { $0.metadata?["thread"] == String(thread) }.map(\.message)
            #expect(own == (0..<2_000).map(String.init))
        }
    }

    @Test func unobservedLevelsCostNothingAndUnregisteringStops() {
        let service = LogService()
        #expect(!service.isEnabled(.fatal) && service.lowestObservedLevel == nil)
        var evaluated = false
        service.log(
            .debug,
            {
                evaluated = true
                return "expensive"
            }())
        #expect(!evaluated)
        let observer = CollectingObserver()
        let registration = service.register(observer, levels: [.warning, .error])
        #expect(service.lowestObservedLevel == .warning && service.isEnabled(.error) && !service.isEnabled(.info))
        service.log(.info, "ignored")
        service.log(LogEntry(level: .debug, message: "ignored too"))
        service.log(.error, "kept", source: "test")
        service.flush()
        service.unregister(registration)
        service.log(.error, "after unregister")
        service.flush()
        #expect(observer.received.map(\.message) == ["kept"] && observer.received.first?.source == "test")
        #expect(!service.isEnabled(.error))
    }

    @Test func synchronousLevelsAreHandledBeforeTheCallReturns() {
        let service = LogService()
        let observer = CollectingObserver(synchronous: [.fatal])
        service.register(observer, levels: [.error, .fatal])
        service.log(.error, "queued first")
        service.log(.fatal, "crash")
        // No flush: the fatal entry (and what was queued before it) has arrived already.
        #expect(observer.received.map(\.message) == ["queued first", "crash"])
    }

    @Test func levelsOrderAndAndAbove() {
        #expect(LogLevel.allCases.sorted() == [.debug, .info, .warning, .error, .fatal])
        #expect(LogLevel.error.andAbove == [.error, .fatal])
    }

    @Test func consolePrinterWritesOneLinePerEntry() {
        let lines = LinesBox()
        let printer = ConsoleLogPrinter { lines.append($0) }
        let entry = LogEntry(
            level: .warning, message: "disk almost full", timestamp: Date(timeIntervalSince1970: 1_795_342_530.123),
            metadata: ["free": "3%", "disk": "/"], source: "storage")
        printer.receive(entry)
        #expect(lines.all == ["2026-11-22T10:15:30.123Z WARNING [storage] disk almost full disk=/ free=3%\n"])
        #expect(
            ConsoleLogPrinter.line(
                for: LogEntry(level: .info, message: "hi", timestamp: Date(timeIntervalSince1970: 0)))
                == "1970-01-01T00:00:00.000Z INFO hi")
        _ = ConsoleLogPrinter()
    }

    @Test func entriesEncodeAsTheIngestFormat() throws {
        let entry = LogEntry(
            level: .fatal, message: "boom", timestamp: Date(timeIntervalSince1970: 1_795_342_530.123),
            metadata: ["k": "v"], source: "app")
        let json = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        #expect(json.contains(#""timestamp":"2026-11-22T10:15:30.123Z""#) && json.contains(#""level":"fatal""#))
        #expect(try JSONDecoder().decode(LogEntry.self, from: Data(json.utf8)) == entry)
        let noFraction = try JSONDecoder().decode(
            LogEntry.self, from: Data(#"{"level":"info","message":"m","timestamp":"2026-11-22T10:15:30Z"}"#.utf8))
        #expect(noFraction.metadata == nil && noFraction.source == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                LogEntry.self, from: Data(#"{"level":"info","message":"m","timestamp":"yesterday"}"#.utf8))
        }
    }
}

final class LinesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
