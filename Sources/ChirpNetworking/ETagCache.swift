import Foundation
import Synchronization

/// Remembers `GET` replies that carried an `ETag`, so the next request can ask
/// `If-None-Match` and reuse the body on `304 Not Modified`. Entries are keyed by URL and
/// credentials (one user's cached reply is never shown to another) and the least recently
/// stored are dropped beyond `capacity`.
public final class ETagCache: Sendable {
    /// A cached reply.
    public struct Entry: Sendable, Hashable {
        /// The `ETag` the server sent.
        public var etag: String
        public var body: Data
        public var headers: [String: String]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// - Parameter capacity: replies kept at most.
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// The cache key of a request.
    public static func key(for request: TransportRequest) -> String {
        let credentials = request.headers.first { $0.key.lowercased() == "authorization" }?.value ?? ""
        return "\(credentials.hashValue)|\(request.url.absoluteString)"
    }

    /// The cached reply for a key.
    public func entry(for key: String) -> Entry? {
        state.withLock { $0.entries[key] }
    }

    /// Caches a reply, evicting the oldest beyond capacity.
    public func store(_ entry: Entry, for key: String) {
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: key) == nil {
                state.order.append(key)
                if state.order.count > capacity {
                    state.entries[state.order.removeFirst()] = nil
                }
            }
        }
    }

    /// Forgets every cached reply (for example at logout).
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Number of cached replies.
    public var count: Int { state.withLock { $0.entries.count } }
}
