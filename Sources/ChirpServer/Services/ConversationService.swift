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
    let store: any ConversationMarkStore & MessageStore & MessageRequestStore & GroupStore
    let hub: EventHub
    let now: @Sendable () -> Timestamp
    var rules = ConversationMarkRules()

    /// A page of the viewer's conversations. The first page (no cursor) starts with every
    /// pinned conversation, most recently pinned first, which do not count toward `limit`;
    /// then, on every page, up to `limit` unpinned ones, the newest last message first (a group
    /// with no message yet for the viewer: as of when they joined it). The cursor walks only the
    /// unpinned ones, so nothing shows twice and nothing is skipped. Requests the viewer has
    /// not accepted are left out; with `requests`, the list holds only them, in the same order
    /// (pinned or not).
    func list(_ viewer: Viewer, page: PageRequest, requests: Bool = false) async throws -> Page<Conversation> {
        // Direct and group conversations are placed by values of one sequence (message ids and
        // join marks, `GroupSQL.conversations`): no two share a place, so one cursor walks both.
        let direct = try await store.conversations(
            viewer: viewer.id, before: page.before, limit: page.fetch, requests: requests)
        let groups = try await store.groupConversations(
            viewer: viewer.id, before: page.before, limit: page.fetch, list: requests ? .requests : .listed, group: nil)
        let rest = PageBuilder.newestFirst((direct + groups).sorted { $0.cursor > $1.cursor }, limit: page.limit)
        guard page.cursor == nil, !requests else { return rest }
        // Read after the unpinned ones: a conversation pinned in between is shown once, pinned.
        let pinned = try await pinned(viewer)
        let pinnedPeers = Set(pinned.filter { $0.group == nil }.map(\.peer.id))
        let pinnedGroups = Set(pinned.compactMap(\.group?.id))
        let unpinned = rest.items.filter { item in
            if let group = item.group { return !pinnedGroups.contains(group.id) }
            return !pinnedPeers.contains(item.peer.id)
        }
        return Page(items: pinned + unpinned, nextCursor: rest.nextCursor)
    }

    /// The viewer's pinned conversations, direct and group, most recently pinned first.
    private func pinned(_ viewer: Viewer) async throws -> [Conversation] {
        let direct = try await store.pinnedConversations(viewer: viewer.id)
        let groups = try await store.groupConversations(
            viewer: viewer.id, before: Int64.max, limit: Validation.maxPinnedConversations, list: .pinned, group: nil)
        guard !groups.isEmpty else { return direct }
        let orders = try await store.directPinOrders(viewer: viewer.id)
        let listed = direct.map { Listed(cursor: orders[$0.peer.id] ?? 0, item: $0) } + groups
        return listed.sorted { $0.cursor > $1.cursor }.map(\.item)
    }

    /// Applies `change` to the viewer's conversation with `peer`; idempotent.
    func mark(_ viewer: Viewer, peer: String, _ change: ConversationMarkChange) async throws {
        let key = try UsernameLookup.conversationKey(peer)
        switch try await store.markConversation(
            viewer: viewer.id, peerKey: key, change: change, at: now(), decisions: rules)
        {
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
        switch try await store.answerRequest(
            viewer: viewer.id, peerKey: key, answer, at: now(), encode: { try rules.encode($0) })
        {
        case .noSuchPeer:
            throw APIError.userNotFound(peer)
        case .noRequest:
            throw APIError(
                .notFound, APIErrorCode.requestNotFound,
                "\(peer.prefix(32)) has no message request waiting for your answer.")
        case .answered(let appended):
            hub.publish(appended)
        }
    }
}
