import ChirpDataCenter
import ChirpModels
import ChirpPersistence

/// One tweet of the home timeline, newest first by `order`. Refreshed from `GET /v1/timeline`
/// and extended by `tweet.created` events.
public struct TimelineEntry: DataCenterManaged {
    public static let tableName = "timeline"

    /// The tweet's id.
    public var id: String
    /// The id's numeric value (orders the timeline).
    public var order: Int64
    public var author: String
    public var authorDisplayName: String
    public var text: String
    public var createdAt: String

    /// A tweet as a timeline row.
    public init(_ tweet: Tweet) {
        id = tweet.id
        order = Int64(tweet.id) ?? 0
        author = tweet.author.username
        authorDisplayName = tweet.author.displayName
        text = tweet.text
        createdAt = tweet.createdAt.rfc3339
    }

    /// A refresh adds the newest page (older rows stay until they scroll out).
    public static func records(from response: Page<Tweet>, for request: ChirpEndpoints.Timeline) -> [TimelineEntry] {
        response.items.map(TimelineEntry.init)
    }

    /// Newest first.
    static var newestFirst: RecordQuery { RecordQuery().order(by: "order", ascending: false) }
}
