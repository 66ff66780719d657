import ChirpModels
import ChirpNetworking
import Foundation

// INTERIM — delete at the merge. The façade calls of facade-contract.md that the modules use,
// written over today's UserSession (refresh…, database reads, api) until client-data's
// UserSession, which has them, lands. Nothing else in App/ touches those parts.
extension UserSession {
    /// Contract: the conversation list, then followers not yet written to.
    func conversations(refresh: Bool) async throws -> [ConversationSummary] {
        if refresh {
            try await refreshConversations()
            try await refreshFollows(.followers, of: username)
        }
        let conversations = try await database.conversations.fetch(ConversationSummary.newestFirst)
        let known = Set(conversations.map(\.id))
        let followers = try await database.follows.fetch(FollowEntry.list("followers", of: username))
        return conversations + followers.filter { !known.contains($0.username.lowercased()) }.map(ConversationSummary.init(follower:))
    }

    /// Contract: a conversation's newest `limit` messages, oldest first.
    func messages(with peer: String, limit: Int, refresh: Bool) async throws -> (items: [LocalMessage], hasOlder: Bool) {
        if refresh { try await refreshMessages(with: peer, limit: min(limit, 100)) }
        let rows = try await database.messages(with: peer, limit: limit + 1)
        return (Array(rows.suffix(limit)), rows.count > limit)
    }

    /// Contract: the home timeline, newest first.
    func timeline(limit: Int, refresh: Bool) async throws -> [TimelineEntry] {
        if refresh { try await refreshTimeline(limit: min(limit, 100)) }
        return try await database.timeline.fetch(TimelineEntry.newestFirst.limit(limit))
    }

    /// Contract: a profile, read from the server.
    func profile(_ username: String) async throws -> User {
        try await api.send(ChirpEndpoints.GetUser(username))
    }

    /// Contract: one drain of the outbox.
    func drainOutbox() async throws -> OutboxReport {
        try await outbox.flush()
    }
}
