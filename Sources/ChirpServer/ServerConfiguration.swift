import ChirpModels
import Foundation

/// Everything `chirp serve` can be told, with the defaults of the command line.
public struct ServerConfiguration: Sendable {
    /// Interface to bind; loopback by default.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one.
    public var port: Int = 8080
    /// Directory of the SQLite database (`chirp.sqlite`); unused with `postgres`.
    public var dataDirectory: URL = URL(fileURLWithPath: "chirp-data")
    /// A PostgreSQL database to use instead of SQLite; several instances may share it.
    public var postgres: PostgresSettings?
    /// Share of requests (0–1) answered with 503; the rest get 0–200 ms of extra latency.
    public var chaosRate: Double = 0
    /// Test-only: requests (`METHOD:PATH`) whose first occurrence is answered with a 500.
    public var failOnce: [String] = []
    /// Whether the rate limits apply (messages, accounts, tweets, follows, reactions).
    public var rateLimitsEnabled: Bool = true
    /// Messages a user may send per `messageRateWindow`.
    public var messageRateLimit: Int = 200
    /// The window of the direct-message limit.
    public var messageRateWindow: Duration = .seconds(15 * 60)
    /// Accounts one client address may create (API.md "Limits").
    public var accountCreationLimit = RateLimit(count: 10, window: .seconds(3_600))
    /// Tweets one user may post.
    public var tweetLimit = RateLimit(count: 300, window: .seconds(3 * 3_600))
    /// Follows one user may make.
    public var followLimit = RateLimit(count: 400, window: .seconds(86_400))
    /// Reactions one user may add.
    public var reactionLimit = RateLimit(count: 1_000, window: .seconds(3_600))
    /// Client log batches (`POST /v1/logs`) one user may send.
    public var clientLogLimit = RateLimit(count: 60, window: .seconds(3_600))
    /// Reports one user may file.
    public var reportLimit = RateLimit(count: 20, window: .seconds(3_600))
    /// Data exports one user may start per window: each reads all their data and copies their
    /// media, so an unbounded loop of them would keep the disk busy.
    public var exportLimit = RateLimit(count: 4, window: .seconds(86_400))
    /// Group changes (create, rename, add, remove, admins, accept, decline) one user may make:
    /// each stores an event for every member, so an unlimited loop of them fills the disk.
    public var groupChangeLimit = RateLimit(count: 120, window: .seconds(3_600))
    /// Typing notices (direct and group) one user may send: live only, but a group's fans out
    /// to every member.
    public var typingLimit = RateLimit(count: 120, window: .seconds(60))
    /// How long client log entries (and the batch ids that make a retry a duplicate) are kept;
    /// zero keeps them.
    public var clientLogRetention: Duration = .seconds(30 * 86_400)
    /// How long reports are kept; zero keeps them.
    public var reportRetention: Duration = .seconds(365 * 86_400)
    /// How long stored events are kept (`--event-retention`); zero keeps them. Each stream
    /// keeps its newest event; a client that resumes from before the horizon gets
    /// `events.pruned` and reads its lists again.
    public var eventRetention: Duration = .seconds(30 * 86_400)
    /// How often the retention sweep runs.
    public var retentionSweepInterval: Duration = .seconds(3_600)
    /// How long after sending a message its sender may edit it (API.md: 15 minutes).
    public var messageEditWindow: Duration = Validation.editWindow
    /// Failed password checks per (username, client address) within `loginFailureWindow`
    /// before further attempts from that address for that username get 429; also the failures
    /// per username (from anywhere) past which every attempt waits `loginSlowdown` first.
    public var loginFailureLimit: Int = 10
    /// Failed password checks per client address (an IPv6 client: its /64), whatever the
    /// usernames, before further attempts from it get 429.
    public var loginAddressFailureLimit: Int = 100
    /// The window of the login throttle.
    public var loginFailureWindow: Duration = .seconds(15 * 60)
    /// How long each attempt for a username past `loginFailureLimit` failures waits before its
    /// check (a slow-down: the right password still gets in).
    public var loginSlowdown: Duration = .seconds(1)
    /// Keys each of the login throttle's tables holds at most in memory (SQLite: one process).
    public var loginThrottleCapacity: Int = 20_000
    /// bcrypt cost; 10 or more in production (tests lower it to stay fast).
    public var bcryptCost: UInt8 = 10
    /// How long a session token stays valid.
    public var tokenLifetime: Duration = .seconds(30 * 24 * 3600)
    /// Longest a `GET /v1/events?wait=` long-poll is held, in seconds (the API allows up to 30;
    /// a lower cap keeps API fuzzers and load tests quick).
    public var maxLongPollSeconds: Int = 30
    /// Largest request body accepted, in bytes.
    public var maxBodyBytes: Int = 64 * 1024
    /// How often an event-stream client is pinged; one that has not answered the previous
    /// ping by the next is closed with 1001. Stalled writers are looked for at least every 5 s.
    public var streamPingInterval: Duration = .seconds(20)
    /// A session's last use (`GET /v1/sessions`) is written at most this often per session and
    /// instance, so requests do not each cost a write.
    public var sessionLastUseInterval: Duration = .seconds(60)

    // Connection limits (API.md part 2, "Limits"). On whatever `rateLimitsEnabled` says: they
    // cost nothing measurable and keep the server reachable. A zero turns one off.
    /// How long a request's head may take, from the connection opening or the request's first byte.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a kept-alive connection may sit between a response and the next request.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections one client address may hold on this instance; more are closed unread.
    public var maxConnectionsPerAddress: Int = 256
    /// The listen socket's backlog: the system's ceiling (`ListenBacklog`), not Hummingbird's 256.
    public var listenBacklog: Int = ListenBacklog.systemMaximum
    /// Event streams one user may hold on this instance; one more closes the oldest (1008).
    public var maxStreamsPerUser: Int = 10
    /// The most members a group may have, its creator included (`--max-group-members`).
    public var maxGroupMembers: Int = Validation.defaultMaxGroupMembers
    /// The most groups one user may be a current member of, those they created included
    /// (`--max-groups-per-user`): creating or joining one more is refused (409 `too_many_groups`).
    public var maxGroupsPerUser: Int = 500
    /// Proxies whose `X-Forwarded-For` names the client (its last untrusted hop).
    public var trustedProxies: [AddressRange] = []
    /// HTTPS and WSS on the listening port instead of plain HTTP (`--tls-cert`, `--tls-key`).
    public var tls: ServerTLS?

    // Media (API.md part 2, "Media").
    /// Largest media accepted, in bytes (`--max-media-bytes`).
    public var maxMediaBytes: Int64 = 25 * 1024 * 1024
    /// Bytes of media one user may hold (`--media-quota-bytes`); unfinished uploads count.
    public var mediaQuotaBytes: Int64 = 1024 * 1024 * 1024
    /// Unfinished resumable uploads one user may hold at once.
    public var maxUnfinishedUploads: Int = 5
    /// Where media bytes live; nil: `media` in the data directory. Instances sharing a
    /// PostgreSQL database must name one shared directory (docs/scale-out.md).
    public var mediaDirectory: URL?
    /// How long media no message references is kept before the sweep deletes it.
    public var unreferencedMediaLifetime: Duration = .seconds(24 * 3600)
    /// How often the media sweep runs.
    public var mediaSweepInterval: Duration = .seconds(15 * 60)
    /// How long a finished data export (`POST /v1/me/export`) is kept for its user to download.
    public var exportRetention: Duration = .seconds(7 * 86_400)
    /// Bench only (`chirp serve --bench-static-file`): a file served as-is at `GET /bench/static`.
    public var benchStaticFile: URL?
    /// Bench only (`chirp serve --bench-without-search-index`): SQLite sends are not indexed for
    /// search, so that `chirp bench --compare-search-index` can measure what the index costs.
    public var benchWithoutSearchIndex = false
    /// How often every open stream re-reads storage regardless of wake-ups (a safety net for a
    /// missed one). Benchmarks only lengthen it, to measure what the re-reads cost.
    public var streamSweepPeriod: Duration = .seconds(25)
    /// Hosts a push subscription's endpoint may reach over plain HTTP, or on this machine or a
    /// private network (`chirp serve --push-allow-http-endpoint`): tests and private push
    /// services. Every other endpoint must be `https://` to a public host.
    public var pushAllowedHosts: [String] = []
    /// The contact the push services see in the VAPID token (`sub`, RFC 8292): a `mailto:` or
    /// `https:` URL (`chirp serve --push-contact`).
    public var pushContact = "mailto:admin@localhost"
    /// How long one push may take before it is tried again later.
    public var pushTimeout: Duration = .seconds(10)
    /// At most this many push subscriptions per account.
    public var maxPushSubscriptions = 10
    /// Devices per account for encrypted conversations (API.md part 4).
    public var maxDevices = 20

    /// The body limit of a group message's send or edit: an envelope names every device of
    /// every member, about 210 bytes each (a 64-character device id at most), so a full group
    /// of members with the most devices fits (256 × 20: about 1.1 MB), and never less than
    /// `maxBodyBytes`.
    public var maxGroupMessageBodyBytes: Int { max(maxBodyBytes, maxGroupMembers * maxDevices * 210 + 16 * 1024) }
    /// The wait before a push the push service did not take is tried again, tripled each time
    /// (tests shorten it).
    public var pushFirstRetryDelay: Duration = .seconds(60)

    public init() {}

    /// The SQLite database file inside the data directory.
    public var databaseURL: URL { dataDirectory.appendingPathComponent("chirp.sqlite") }

    /// The directory of media bytes: `mediaDirectory`, or `media` in the data directory.
    public var mediaURL: URL { mediaDirectory ?? dataDirectory.appendingPathComponent("media") }

    /// Where data exports are written: `exports` in the media directory, which instances
    /// sharing a database share, so any of them can answer for an export another prepared.
    public var exportsURL: URL { mediaURL.appendingPathComponent("exports") }

    /// Where the data is, for people: `sqlite: PATH` or `postgres: URL` without the password.
    public var databaseDescription: String {
        if let postgres { return "postgres: \(postgres.redactedURL)" }
        return "sqlite: \(databaseURL.path)"
    }
}
