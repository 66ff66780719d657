import ChirpModels

@testable import ChirpServer

/// Storage calls as the services make them, for tests that drive a storage directly.
extension ChirpStorage {
    /// Creates an account (with a session that is already expired) and returns it as a viewer.
    func account(_ name: String, tokenHash: [UInt8], at now: Timestamp = .now()) async throws -> Viewer {
        let user = try await createAccount(
            NewAccount(username: name, displayName: name, passwordHash: "x", createdAt: now),
            session: NewSession(
                userId: 0, tokenHash: tokenHash, createdAt: now,
                expiresAt: Timestamp(millisecondsSince1970: now.millisecondsSince1970 + 86_400_000)))
        guard let user else { throw FixtureError.usernameTaken(name) }
        return Viewer(id: Int64(user.id)!, username: user.username, tokenHash: tokenHash)
    }

    /// `follower` follows `username`.
    func follow(_ follower: Viewer, _ username: String, at now: Timestamp = .now()) async throws {
        _ = try await follow(
            followerId: follower.id, followeeKey: Validation.usernameKey(username), at: now, permit: { _ in },
            notice: { try APIJSON.encode(FollowNotice(follower: $0)) })
    }

    /// A send that every recipient accepts (storage tests need no API rules).
    func send(_ new: NewMessage) async throws -> WriteOutcome<Message> {
        try await sendMessage(new, decisions: RecordingDecisions())
    }

    /// A change to a stored message, its JSON written as the message actions write it.
    func changeMessage(
        _ id: Int64, viewer: Int64, peerKey: String, at: Timestamp,
        change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> MessageChangeOutcome {
        try await changeMessage(
            id, viewer: viewer, peerKey: peerKey, at: at, encoding: MessageChangeJSON(), change: change)
    }

    /// The newest `limit` messages between `viewer` and `peer`, oldest first.
    func latestMessages(_ viewer: Viewer, _ peer: String, limit: Int = 10) async throws -> [Message] {
        let found = try await messages(
            viewer: viewer.id, peerKey: Validation.usernameKey(peer), after: 0, before: Int64.max, ascending: false,
            limit: limit)
        return (found ?? []).reversed()
    }
}

enum FixtureError: Error {
    case usernameTaken(String)
}

extension NewMessage {
    /// A message to `recipient`, looked up by that name's key.
    init(sender: Viewer, recipient: String, clientMessageId: String, text: String, createdAt: Timestamp) {
        self.init(
            sender: sender, recipient: recipient, recipientKey: Validation.usernameKey(recipient),
            clientMessageId: clientMessageId,
            text: text, createdAt: createdAt)
    }
}
