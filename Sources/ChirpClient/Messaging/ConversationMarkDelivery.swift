import ChirpModels
import ChirpNetworking

/// Sends one queued pin or mute (`ActionDelivery` hands them here): the network layer retries
/// transient failures; a refusal (a 4xx: no such conversation on the server, too many pinned)
/// drops it and its mark, and brings the conversation list back as the server has it.
struct ConversationMarkDelivery: Sendable {
    let ledger: LocalLedger
    let api: ChirpAPIClient
    let retries: RetryPolicy

    func deliver(_ action: PendingAction) async throws -> ActionDelivery.Outcome {
        let change: ChirpEndpoints.MarkConversation.Change = switch action.kind {
        case .pin: .pin
        case .unpin: .unpin
        case .mute: .mute
        default: .unmute
        }
        var endpoint = ChirpEndpoints.MarkConversation(change, with: action.peer)
        endpoint.retryPolicy = retries
        do {
            _ = try await api.send(endpoint)
        } catch {
            if error == .cancelled || error == .offline || error.isTransient { return .blocked(error) }
            try await ledger.dropRefused(action)
            let request = ChirpEndpoints.ListConversations(page: PageParameters(limit: 100))
            if let page = try? await api.send(request) {
                try await ledger.merge(conversations: ConversationSummary.records(from: page, for: request))
            }
            if case .server(_, _, let text, _) = error { return .refused(text) }
            return .refused(error.description)
        }
        try await ledger.finish(action)
        return .done
    }
}
