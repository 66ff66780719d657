import ArgumentParser
import ChirpLogging
import Foundation
import Logging

/// `chirp bench logging`: what a log call costs, next to swift-log with a no-op handler.
struct LoggingBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logging", abstract: "Cost of a log call, observed and not, beside swift-log with a no-op handler."
    )

    @Option(help: "Calls per case.")
    var calls = 10_000_000

    /// Counts what it receives.
    final class CountingObserver: LogObserver, @unchecked Sendable {
        var count = 0
        func receive(_ entry: LogEntry) { count += 1 }
    }

    func run() throws {
        let service = LogService()
        let observer = CountingObserver()
        service.register(observer, levels: [.error])
        let noop = Logger(label: "noop") { _ in SwiftLogNoOpLogHandler() }
        // As the client makes its loggers (ClientDiagnostics): the level follows the observers.
        let product = Logger(label: "product") { SwiftLogBridge(label: $0, service: service) }
        var configured = Logger(label: "bridge") { SwiftLogBridge(label: $0, service: service) }
        configured.logLevel = .error
        let bridged = configured  // a constant, as the others: a captured var would add its own cost
        let value = 42
        print("\(calls) calls per case, ns per call (wall clock, one thread logging)")
        report("swift-log, no-op handler, level off (debug)") {
            for i in 0..<calls { noop.debug("value \(value) \(i)") }
        }
        report("swift-log, no-op handler, level on (critical)") {
            for i in 0..<calls { noop.critical("value \(value) \(i)") }
        }
        report("LogService, level nobody observes (debug)") {
            for i in 0..<calls { service.log(.debug, "value \(value) \(i)") }
        }
        report("Logger via bridge, level nobody observes (debug)") {
            for i in 0..<calls { bridged.debug("value \(value) \(i)") }
        }
        report("Logger as the client makes it, level nobody observes (debug)") {
            for i in 0..<calls { product.debug("value \(value) \(i)") }
        }
        report("LogService, observed (error), delivered to one observer") {
            for i in 0..<calls {
                service.log(.error, "value \(value) \(i)")
                if i % 100_000 == 99_999 { service.flush() }
            }
            service.flush()
        }
        report("Logger via bridge, observed (error), delivered to one observer") {
            for i in 0..<calls {
                bridged.error("value \(value) \(i)")
                if i % 100_000 == 99_999 { service.flush() }
            }
            service.flush()
        }
        guard observer.count == 2 * calls else { throw ValidationError("delivered \(observer.count) of \(2 * calls)") }
    }

    private func report(_ label: String, _ body: () -> Void) {
        let start = ContinuousClock.now
        body()
        let nanos = (ContinuousClock.now - start).seconds * 1e9 / Double(calls)
        print("  \(label.padding(toLength: 62, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", nanos)) ns")
    }
}
