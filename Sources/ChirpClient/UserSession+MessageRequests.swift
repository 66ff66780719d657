import ChirpModels

/// Message requests (API.md part 3): who may start a conversation with this user, the
/// requests waiting for an answer, and the answers, offline first like pins: each answer shows
/// at once (accepted: in the conversation list; declined: gone), is kept across a restart in
/// the outbox behind what the conversation queued before it, and is sent when the server can
/// be reached. Replying to a request accepts it too.
extension UserSession {
    /// This user's settings, from the server (nothing is stored).
    public func settings() async throws -> UserSettings {
        try await api.send(ChirpEndpoints.GetSettings())
    }

    /// Sets who may start a conversation with this user; returns the settings as the server
    /// now has them.
    @discardableResult
    public func setMessageRequests(_ policy: MessageRequestPolicy) async throws -> UserSettings {
        try await api.send(ChirpEndpoints.UpdateSettings(SettingsUpdate(messageRequests: policy.rawValue)))
    }

    /// The message requests waiting for this user's answer, the newest first; with `refresh`,
    /// brought up to date from the server first (its errors are thrown).
    public func requests(refresh: Bool) async throws -> [ConversationSummary] {
        if refresh {
            try await dataCenter.update(
                ConversationSummary.self,
                with: ChirpEndpoints.ListConversations(page: PageParameters(limit: 100), requests: true))
        }
        return try await database.conversations.fetch(ConversationSummary.requestsNewestFirst)
    }

    /// Accepts the request from `peer`: it becomes an ordinary conversation. Throws
    /// `MessageRequestError.noSuchRequest` when none waits here.
    public func accept(_ peer: String) async throws { try await answer(.accept, peer) }

    /// Declines the request from `peer`: it leaves the lists (a later message from them is a
    /// new request). Throws `MessageRequestError.noSuchRequest` when none waits here.
    public func decline(_ peer: String) async throws { try await answer(.decline, peer) }

    private func answer(_ kind: PendingAction.Kind, _ peer: String) async throws {
        try await ledger.queueAnswer(kind, peer: peer)
        _ = await outbox.drain()
    }
}
