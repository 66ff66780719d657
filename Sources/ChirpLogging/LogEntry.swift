import Foundation

/// One log entry: level, message, time, metadata and where it came from.
///
/// Encoded as `{"level", "message", "timestamp", "metadata"?, "source"?}` with the timestamp in
/// RFC 3339 with milliseconds, the shape log ingest endpoints (such as Chirp's `POST /v1/logs`)
/// accept.
public struct LogEntry: Sendable, Hashable, Codable {
    /// How severe.
    public var level: LogLevel
    /// What happened.
    public var message: String
    /// When it was logged.
    public var timestamp: Date
    /// Key-value context.
    public var metadata: [String: String]?
    /// Where it came from (a logger label, a module).
    public var source: String?

    /// Creates an entry; `timestamp` defaults to now.
    public init(
        level: LogLevel, message: String, timestamp: Date = Date(), metadata: [String: String]? = nil,
        source: String? = nil
    ) {
        self.level = level
        self.message = message
        self.timestamp = timestamp
        self.metadata = metadata
        self.source = source
    }

    enum CodingKeys: String, CodingKey { case level, message, timestamp, metadata, source }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        level = try container.decode(LogLevel.self, forKey: .level)
        message = try container.decode(String.self, forKey: .message)
        let text = try container.decode(String.self, forKey: .timestamp)
        guard let date = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .timestamp, in: container, debugDescription: "not an RFC 3339 time: \(text)")
        }
        timestamp = date
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata)
        source = try container.decodeIfPresent(String.self, forKey: .source)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(level, forKey: .level)
        try container.encode(message, forKey: .message)
        try container.encode(Self.format(timestamp), forKey: .timestamp)
        try container.encodeIfPresent(metadata, forKey: .metadata)
        try container.encodeIfPresent(source, forKey: .source)
    }

    /// Size of the entry's text, a cheap stand-in for its encoded size.
    public var approximateBytes: Int {
        64 + message.utf8.count + (source?.utf8.count ?? 0)
            + (metadata?.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 } ?? 0)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
