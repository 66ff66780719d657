import ChirpModels
import Foundation
import Synchronization

/// Progress of one attachment moving between this device and the server
/// (`UserSession.mediaTransfers()`).
public struct MediaTransfer: Sendable, Hashable {
    /// What is moving.
    public enum Subject: Sendable, Hashable {
        /// An attachment of an outgoing message: the message's local id (`LocalMessage.id`),
        /// the attachment's position in it, and its client media id.
        case upload(localMessageId: String, index: Int, clientMediaId: String)
        /// A media coming down, by its server id.
        case download(mediaId: String)
    }

    /// Where the transfer stands.
    public enum State: Sendable, Hashable {
        case running
        case finished
        /// Stopped; the reason, for people. An upload is retried by the outbox.
        case failed(String)
    }

    public var subject: Subject
    /// Bytes sent or received so far (of the whole file, counting a resumed part).
    public var bytesDone: Int64
    /// The file's size, when known.
    public var total: Int64?
    public var state: State

    public init(subject: Subject, bytesDone: Int64, total: Int64?, state: State) {
        self.subject = subject
        self.bytesDone = bytesDone
        self.total = total
        self.state = state
    }

    /// `bytesDone / total` in 0...1, when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return total == 0 ? 1 : nil }
        return min(1, Double(bytesDone) / Double(total))
    }
}

/// Hands each transfer update to every stream open at that moment; a slow watcher keeps the
/// newest updates.
final class MediaTransferFeed: Sendable {
    private let watchers = Mutex<[UUID: AsyncStream<MediaTransfer>.Continuation]>([:])

    func stream() -> AsyncStream<MediaTransfer> {
        let (stream, continuation) = AsyncStream<MediaTransfer>.makeStream(bufferingPolicy: .bufferingNewest(512))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.watchers.withLock { _ = $0.removeValue(forKey: id) } }
        watchers.withLock { $0[id] = continuation }
        return stream
    }

    func publish(_ transfer: MediaTransfer) {
        for continuation in watchers.withLock({ Array($0.values) }) { continuation.yield(transfer) }
    }
}
