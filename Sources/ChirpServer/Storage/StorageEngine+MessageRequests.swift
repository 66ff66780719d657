import ChirpModels

/// Message requests: the setting and the answer, written once for both engines.
extension StorageEngine {
    func takesMessageRequests(userId: Int64) async throws -> Bool? {
        try await reading { scope in
            try await scope.queryValue("SELECT takes_message_requests FROM users WHERE id = $1", userId, as: Bool.self)
        }
    }

    func setTakesMessageRequests(userId: Int64, _ takes: Bool) async throws {
        try await writing { scope in
            try await scope.run("UPDATE users SET takes_message_requests = $1 WHERE id = $2", takes, userId)
        }
    }

    func answerRequest(
        viewer: Int64, peerKey: String, _ answer: RequestAnswer, at: Timestamp,
        encode: @escaping @Sendable (Conversation) throws -> String
    ) async throws -> RequestAnswerOutcome {
        try await writing { scope in
            guard let peer = try await scope.userId(key: peerKey) else { return .noSuchPeer }
            // Both users' rows, as a send between them locks them: the answer and the sends it
            // races with queue up, and a batch checks the request again under the locks.
            try await scope.lockUsers([viewer, peer])
            guard try await scope.queryRow(StorageSQL.pendingRequestExists, viewer, peer) != nil else {
                return .noRequest
            }
            guard
                var conversation = try await scope.conversations(owner: viewer, where: "c.peer_id = $2", peer).first?
                    .item
            else { throw StorageError.inconsistent("the conversation of request \(viewer)/\(peer) is missing") }
            try await scope.run(each: StorageSQL.answerStatements[answer]!, viewer, peer)
            conversation.request = false
            if answer == .decline {
                conversation.declined = true
            } else if let accepted = try await scope.conversations(owner: viewer, where: "c.peer_id = $2", peer).first?
                .item
            {
                conversation = accepted
            }
            let appended = try await scope.appendEvent(
                userId: viewer, type: EventType.conversationUpdated, json: encode(conversation), at: at)
            return .answered([appended])
        }
    }
}
