import Histogram
import Synchronization

/// Latencies in microseconds, recorded from many tasks into one HdrHistogram.
final class LatencyRecorder: Sendable {
    private let histogram = Mutex(
        Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))

    func record(microseconds: Int64) {
        let micros = UInt64(min(max(0, microseconds), 60_000_000))
        histogram.withLock { _ = $0.record(micros) }
    }

    var count: UInt64 { histogram.withLock { $0.totalCount } }

    /// Everything recorded so far, to hand to another process.
    var recorded: Histogram<UInt64> { histogram.withLock { $0 } }

    /// Adds what another recorder (in another process, say) recorded.
    func add(_ other: Histogram<UInt64>) { histogram.withLock { $0.add(other) } }

    /// p50, p99, p99.9 and max in milliseconds.
    var summary: LatencyPercentiles {
        histogram.withLock { h in
            LatencyPercentiles(
                count: Int(h.totalCount), p50: Double(h.valueAtPercentile(50)) / 1000,
                p99: Double(h.valueAtPercentile(99)) / 1000,
                p999: Double(h.valueAtPercentile(99.9)) / 1000, max: Double(h.max) / 1000)
        }
    }
}

/// Percentiles of one kind of latency, in milliseconds.
struct LatencyPercentiles: Encodable {
    var count: Int
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double

    var line: String {
        String(format: "p50 %.2f ms · p99 %.2f ms · p99.9 %.2f ms · max %.2f ms (%d)", p50, p99, p999, max, count)
    }
}
