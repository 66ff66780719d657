import ChirpModels

/// Turning encryption on (API.md part 4): for a direct conversation either person may; for a
/// group, its admins (`GroupService`, as any group change). It is never turned off.
struct EncryptionService: Sendable {
    let store: any EncryptionStore
    let groups: GroupService
    let hub: EventHub
    var now: @Sendable () -> Timestamp = { .now() }

    /// Turns the viewer's conversation with `peer` encrypted; idempotent.
    func encryptDirect(_ viewer: Viewer, peer: String) async throws {
        guard
            let outcome = try await store.encryptDirect(
                viewer: viewer.id, peerKey: try UsernameLookup.recipientKey(peer), at: now(),
                decisions: Decisions(viewer: viewer.id, peer: peer))
        else { throw APIError.userNotFound(peer) }
        hub.publish(outcome.appended)
    }

    /// Turns group `id` encrypted (its admins only); idempotent.
    func encryptGroup(_ viewer: Viewer, id: String) async throws {
        try await groups.change(viewer, id: id, .encrypt)
    }

    /// Whoever may message the peer may encrypt the conversation, once both have a device.
    private struct Decisions: EncryptionDecisions {
        let viewer: Int64
        let peer: String

        func mayEncrypt(_ facts: RecipientFacts, withoutDevices: [String]) throws {
            _ = try MessageRules.permission(sender: viewer, to: facts, named: peer)
            if let member = withoutDevices.first { throw EncryptionRules.noDevices(member) }
        }

        func encode(_ conversation: Conversation) throws -> String {
            try APIJSON.encode(conversation)
        }
    }
}
