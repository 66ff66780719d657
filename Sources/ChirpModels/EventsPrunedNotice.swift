/// `events.pruned` data: the oldest seq the stream still holds. The events between the
/// client's `since` and it were older than the server's event retention (`chirp serve
/// --event-retention`) and were deleted; the client reads its lists again instead.
public struct EventsPrunedNotice: Sendable, Hashable, Codable {
    public var oldestSeq: String

    public init(oldestSeq: String) {
        self.oldestSeq = oldestSeq
    }
}
