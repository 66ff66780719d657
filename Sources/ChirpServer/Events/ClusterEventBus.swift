/// Carries live-only events between server instances that share one database. (Wake-ups for
/// stored events travel with the storage's commits; see `PostgresStorage`.)
protocol ClusterEventBus: Sendable {
    /// Hands a live-only event to the listeners of `userId` on every other instance.
    func publishLive(userId: Int64, event: StoredEvent) async
    /// Tells every other instance that sessions of `userId` ended, so their session caches
    /// forget that user's sessions at once.
    func publishSessionsEnded(userId: Int64) async
}
