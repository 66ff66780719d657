import CoreMetrics
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into its own Prometheus registry (so
/// two servers in one process, as in tests, do not share counters) and served at `/metrics`.
final class ServerMetrics: Sendable {
    private struct RouteKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct RouteMetrics: Sendable {
        var requests: CoreMetrics.Counter
        var duration: CoreMetrics.Timer
    }

    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let routes = Mutex<[RouteKey: RouteMetrics]>([:])
    /// Direct messages newly stored (replays not counted).
    let messagesSent: CoreMetrics.Counter
    /// Tweets newly stored.
    let tweetsPosted: CoreMetrics.Counter
    /// WebSocket event streams open on this instance now.
    let openStreams: CoreMetrics.Meter
    /// Connections open on this instance now (event streams included).
    let openConnections: CoreMetrics.Meter
    /// Connections closed unread because their address held the most allowed.
    let refusedConnections: CoreMetrics.Counter
    /// Pages event streams read from storage; a stream that is up to date sends the events
    /// handed over with their commit (its own instance's, or another's notification) unread.
    let streamReads: CoreMetrics.Counter

    init() {
        registry = PrometheusCollectorRegistry()
        factory = PrometheusMetricsFactory(registry: registry)
        messagesSent = CoreMetrics.Counter(label: "chirp_messages_sent_total", factory: factory)
        tweetsPosted = CoreMetrics.Counter(label: "chirp_tweets_posted_total", factory: factory)
        openStreams = CoreMetrics.Meter(label: "chirp_event_streams_open", factory: factory)
        openConnections = CoreMetrics.Meter(label: "chirp_connections_open", factory: factory)
        refusedConnections = CoreMetrics.Counter(label: "chirp_connections_refused_total", factory: factory)
        streamReads = CoreMetrics.Counter(label: "chirp_event_stream_reads_total", factory: factory)
    }

    /// Records one finished request under its route template (not its concrete path, which
    /// would give one series per user).
    func record(route: String, method: String, status: Int, nanoseconds: Int64) {
        let key = RouteKey(route: route, method: method, status: status)
        let metrics = routes.withLock { table in
            if let existing = table[key] { return existing }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let created = RouteMetrics(
                requests: CoreMetrics.Counter(
                    label: "chirp_http_requests_total", dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(
                    label: "chirp_http_request_duration_seconds", dimensions: dimensions, factory: factory))
            table[key] = created
            return created
        }
        metrics.requests.increment()
        metrics.duration.recordNanoseconds(nanoseconds)
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
