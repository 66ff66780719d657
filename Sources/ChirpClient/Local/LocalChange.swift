import Foundation
import Synchronization

/// A change to one user's local data, as `LocalLedger` wrote it: which part changed, so a
/// screen knows whether to read again (`UserSession.changes()`).
public enum LocalChange: Sendable, Hashable {
    /// Messages of the conversation with `peer` (lowercased) were added or changed state.
    case messages(peer: String)
    /// The conversation list changed (a last message, an unread count, a new row).
    case conversations
    /// `owner`'s `relation` list (`followers` or `following`) changed.
    case follows(owner: String, relation: String)
    /// The timeline gained tweets.
    case timeline
    /// `user` (lowercased) added, rotated or removed a device: what is sealed to them from now
    /// on goes to their new list (an encrypted conversation shows a notice).
    case devices(user: String)
}

/// Hands each change the ledger publishes to every stream open at that moment. A watcher that
/// falls behind keeps the newest changes only: a change says "read again", so an old one that
/// was dropped loses nothing a newer one does not also say.
final class ChangeFeed: Sendable {
    private let watchers = Mutex<[UUID: AsyncStream<LocalChange>.Continuation]>([:])

    /// A stream of the changes published from now on, until the consumer stops.
    func stream() -> AsyncStream<LocalChange> {
        let (stream, continuation) = AsyncStream<LocalChange>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.watchers.withLock { _ = $0.removeValue(forKey: id) } }
        watchers.withLock { $0[id] = continuation }
        return stream
    }

    /// Tells every watcher, each change once, in order.
    func publish(_ changes: [LocalChange]) {
        guard !changes.isEmpty else { return }
        var unique: [LocalChange] = []
        for change in changes where !unique.contains(change) { unique.append(change) }
        let current = watchers.withLock { Array($0.values) }
        for continuation in current {
            for change in unique { continuation.yield(change) }
        }
    }
}
