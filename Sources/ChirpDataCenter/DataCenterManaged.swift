import ChirpNetworking
import ChirpPersistence

/// A stored model that the network keeps fresh: which call refreshes it, how a reply becomes
/// records, and which stored records a reply stands for (its `RecordWriter` decides how they
/// meet what is stored).
///
/// ```swift
/// extension Follower: DataCenterManaged {
///     static func records(from page: Page<User>, for request: ListFollowers) -> [Follower] {
///         page.items.map { Follower(id: "\(request.owner)/\($0.id)", owner: request.owner, user: $0) }
///     }
///     static func scope(of request: ListFollowers) -> RecordQuery? {
///         RecordQuery().filter("owner", .equal, .text(request.owner))
///     }
/// }
/// ```
public protocol DataCenterManaged: StoredRecord {
    /// The call whose reply refreshes these records.
    associatedtype Refresh: Endpoint

    /// The records a reply stands for.
    static func records(from response: Refresh.Response, for request: Refresh) throws -> [Self]

    /// The stored records that a reply to `request` replaces (those not in the reply are
    /// deleted); `nil` when a reply only adds and updates.
    static func scope(of request: Refresh) -> RecordQuery?
}

extension DataCenterManaged {
    /// By default a refresh only adds and updates.
    public static func scope(of request: Refresh) -> RecordQuery? { nil }
}
