import ChirpModels

/// The viewer's conversation list, pinned ones first, their message requests apart, the marks
/// they set on their conversations (pin, unpin, mute, unmute; API.md part 3) and their answers
/// to requests (accept, decline), each told to their other devices as `conversation.updated`.
///
/// A mark needs a conversation: at least one message between the two, either way (404
/// `conversation_not_found` otherwise, 404 `user_not_found` for no such user). So each user's
/// marks are bounded by their conversations, which only sends create; a deleted account's
/// conversation (`deleted-ID`) keeps its marks and can still be unpinned or unmuted.
struct ConversationService: Sendable {
    let store: any ConversationMarkStore & MessageStore & MessageRequestStore
    let hub: EventHub
    let now: @Sendable () -> Timestamp
    var rules = ConversationMarkRules()

    /// A page of the viewer's conversations. The first page (no cursor) starts with every
    /// pinned conversation, most recently pinned first, which do not count toward `limit`;
    /// then, on every page, up to `limit` unpinned ones, the newest last message first. The
    /// cursor walks only the unpinned ones, so nothing shows twice and nothing is skipped.
    /// Requests the viewer has not accepted are left out; with `requests`, the list holds only
    /// them, the newest last message first (pinned or not).
    func list(_ viewer: Viewer, page: PageRequest, requests: Bool = false) async throws -> Page<Conversation> {
        let rest = PageBuilder.newestFirst(
            try await store.conversations(viewer: viewer.id, before: page.before, limit: page.fetch, requests: requests),
            limit: page.limit)
        guard page.cursor == nil, !requests else { return rest }
        // Read after the unpinned ones: a conversation pinned in between is shown once, pinned.
        let pinned = try await store.pinnedConversations(viewer: viewer.id)
        let pinnedPeers = Set(pinned.map(\.peer.id))
        return Page(items: pinned + rest.items.filter { !pinnedPeers.contains($0.peer.id) }, nextCursor: rest.nextCursor)
    }

    /// Applies `change` to the viewer's conversation with `peer`; idempotent.
    func mark(_ viewer: Viewer, peer: String, _ change: ConversationMarkChange) async throws {
        let key = try UsernameLookup.conversationKey(peer)
        switch try await store.markConversation(viewer: viewer.id, peerKey: key, change: change, at: now(), decisions: rules) {
        case .noSuchPeer:
            throw APIError.userNotFound(peer)
        case .noConversation:
            throw APIError(
                .notFound, APIErrorCode.conversationNotFound,
                "You have no conversation with \(peer.prefix(32)) yet: one message either way starts it.")
        case .done(let outcome):
            hub.publish(outcome.appended)
        }
    }

    /// Accepts or declines the viewer's pending request from `peer` (404 `request_not_found`
    /// when there is none). An accepted request is an ordinary conversation from then on; a
    /// declined one leaves the viewer's list, and a later message from `peer` opens a new one.
    func answer(_ viewer: Viewer, peer: String, _ answer: RequestAnswer) async throws {
        let key = try UsernameLookup.conversationKey(peer)
        let rules = self.rules
        switch try await store.answerRequest(viewer: viewer.id, peerKey: key, answer, at: now(), encode: { try rules.encode($0) }) {
        case .noSuchPeer:
            throw APIError.userNotFound(peer)
        case .noRequest:
            throw APIError(
                .notFound, APIErrorCode.requestNotFound, "\(peer.prefix(32)) has no message request waiting for your answer.")
        case .answered(let appended):
            hub.publish(appended)
        }
    }
}
