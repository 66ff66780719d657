import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func takesMessageRequests(userId: Int64) async throws -> Bool? {
        try await read { scope in
            try await scope.value("SELECT takes_message_requests FROM users WHERE id = \(userId)", as: Bool.self)
        }
    }

    func setTakesMessageRequests(userId: Int64, _ takes: Bool) async throws {
        try await write { scope in
            try await scope.execute("UPDATE users SET takes_message_requests = \(takes) WHERE id = \(userId)")
        }
    }

    func answerRequest(
        viewer: Int64, peerKey: String, _ answer: RequestAnswer, at: Timestamp, encode: @escaping @Sendable (Conversation) throws -> String
    ) async throws -> RequestAnswerOutcome {
        try await write { scope in
            guard let peer = try await Self.userId(scope, key: peerKey) else { return .noSuchPeer }
            // Both users' rows, as a send between them locks them: the answer and the sends it
            // races with queue up, and a batch checks the request again under the locks.
            try await scope.lockUsers([viewer, peer])
            let pair = Self.binds(viewer, peer)
            guard try await scope.row(PostgresQuery(unsafeSQL: StorageSQL.pendingRequestExists, binds: pair)) != nil else {
                return .noRequest
            }
            guard var conversation = try await Self.fetchConversations(scope, viewer: viewer, where: "c.peer_id = $2", pair).first
            else { throw StorageError.inconsistent("the conversation of request \(viewer)/\(peer) is missing") }
            for statement in StorageSQL.answerStatements[answer]! {
                try await scope.execute(PostgresQuery(unsafeSQL: statement, binds: pair))
            }
            conversation.request = false
            if answer == .decline {
                conversation.declined = true
            } else if let accepted = try await Self.fetchConversations(scope, viewer: viewer, where: "c.peer_id = $2", pair).first {
                conversation = accepted
            }
            try await scope.appendEvent(userId: viewer, type: EventType.conversationUpdated, json: encode(conversation), at: at)
            return .answered(scope.appended)
        }
    }
}
