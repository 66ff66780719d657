import ChirpModels
import GRDB

extension SQLiteStorage {
    func takesMessageRequests(userId: Int64) async throws -> Bool? {
        try await read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT takes_message_requests FROM users WHERE id = ?"), arguments: [userId])
        }
    }

    func setTakesMessageRequests(userId: Int64, _ takes: Bool) async throws {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE users SET takes_message_requests = ? WHERE id = ?").execute(arguments: [takes, userId])
        }
    }

    func answerRequest(
        viewer: Int64, peerKey: String, _ answer: RequestAnswer, at: Timestamp, encode: @escaping @Sendable (Conversation) throws -> String
    ) async throws -> RequestAnswerOutcome {
        try await write { db in
            guard let peer = try Self.userId(db, key: peerKey) else { return .noSuchPeer }
            let pair: StatementArguments = [viewer, peer]
            guard try Bool.fetchOne(db.cachedStatement(sql: StorageSQL.pendingRequestExists), arguments: pair) == true else {
                return .noRequest
            }
            guard var conversation = try Self.fetchConversations(db, viewer: viewer, where: "c.peer_id = :peer", ["peer": peer]).first
            else { throw StorageError.inconsistent("the conversation of request \(viewer)/\(peer) is missing") }
            for statement in StorageSQL.answerStatements[answer]! {
                try db.cachedStatement(sql: statement).execute(arguments: pair)
            }
            conversation.request = false
            if answer == .decline {
                conversation.declined = true
            } else if let accepted = try Self.fetchConversations(db, viewer: viewer, where: "c.peer_id = :peer", ["peer": peer]).first {
                conversation = accepted
            }
            let appended = try Self.appendEvent(db, userId: viewer, type: EventType.conversationUpdated, json: encode(conversation), at: at)
            return .answered([appended])
        }
    }
}
