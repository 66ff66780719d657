import ChirpModels
import ChirpNetworking

/// Sends one queued pin or mute, or answer to a message request (`ActionDelivery` hands them
/// here): the network layer retries transient failures; a refusal (a 4xx: no such
/// conversation on the server, too many pinned) drops it and its mark, and brings the
/// conversation list back as the server has it. An answer that finds no request (404
/// `request_not_found`: answered already, here or on another device) is done, and both lists
/// are read again.
struct ConversationMarkDelivery: Sendable {
    let ledger: LocalLedger
    let api: ChirpAPIClient
    let retries: RetryPolicy

    func deliver(_ action: PendingAction) async throws -> ActionDelivery.Outcome {
        do {
            try await send(action)
        } catch {
            if error == .cancelled || error == .offline || error.isTransient { return .blocked(error) }
            var answered = false
            if action.kind.isRequestAnswer, case .server(_, APIErrorCode.requestNotFound, _, _) = error {
                answered = true
            }
            if answered { try await ledger.finish(action) } else { try await ledger.dropRefused(action) }
            for requests in action.kind.isRequestAnswer ? [false, true] : [false] {
                try await ledger.refreshConversations(requests: requests, from: api)
            }
            if answered { return .done }
            if case .server(_, _, let text, _) = error { return .refused(text) }
            return .refused(error.description)
        }
        try await ledger.finish(action)
        return .done
    }

    private func send(_ action: PendingAction) async throws(NetworkError) {
        if action.kind.isRequestAnswer {
            var endpoint = ChirpEndpoints.AnswerRequest(accept: action.kind == .accept, from: action.peer)
            endpoint.retryPolicy = retries
            _ = try await api.send(endpoint)
            return
        }
        let change: ChirpEndpoints.MarkConversation.Change =
            switch action.kind {
            case .pin: .pin
            case .unpin: .unpin
            case .mute: .mute
            default: .unmute
            }
        var endpoint = ChirpEndpoints.MarkConversation(change, with: action.peer)
        endpoint.retryPolicy = retries
        _ = try await api.send(endpoint)
    }
}
