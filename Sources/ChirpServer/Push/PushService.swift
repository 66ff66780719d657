import ChirpModels
import ChirpPush
import Foundation

/// Web Push subscriptions (API.md part 4): the server's public key, and each account's
/// subscriptions, checked before they are stored.
struct PushService: Sendable {
    let store: any PushStore
    let keyring: PushKeyring
    let policy: PushEndpointPolicy
    let limit: Int
    var now: @Sendable () -> Timestamp = { .now() }
    /// Told when a subscription was stored (`PushNotifier.subscriptionsChanged`).
    var onSubscribed: @Sendable () -> Void = {}

    func publicKey() async throws -> PushKeyResponse {
        PushKeyResponse(publicKey: try await keyring.publicKey())
    }

    /// Stores the viewer's subscription `id` for the session of the request; true when it is new.
    func put(_ viewer: Viewer, id: String, _ body: PushSubscriptionRequest) async throws -> (
        PushSubscriptionInfo, created: Bool
    ) {
        try Self.checkId(id)
        let endpoint = try policy.check(body.endpoint)
        do {
            _ = try PushSubscriptionKeys(p256dh: body.keys.p256dh, auth: body.keys.auth)
        } catch {
            throw APIError(
                .unprocessableContent, APIErrorCode.invalidParameter,
                "keys.p256dh must be a P-256 public key and keys.auth 16 bytes, both base64url.", field: "keys")
        }
        let new = NewPushSubscription(
            userId: viewer.id, sessionHash: viewer.tokenHash, clientId: id,
            target: PushTarget(
                endpoint: endpoint.absoluteString, p256dh: body.keys.p256dh, auth: body.keys.auth,
                preview: body.preview ?? false),
            at: now())
        switch try await store.putPushSubscription(new, limit: limit) {
        case .created(let stored):
            onSubscribed()
            return (Self.info(stored), true)
        case .replaced(let stored): return (Self.info(stored), false)
        case .tooMany:
            throw APIError(
                .conflict, APIErrorCode.tooManySubscriptions,
                "An account has at most \(limit) push subscriptions: delete one first.")
        }
    }

    func list(_ viewer: Viewer) async throws -> [PushSubscriptionInfo] {
        try await store.pushSubscriptions(userId: viewer.id).map(Self.info)
    }

    func delete(_ viewer: Viewer, id: String) async throws {
        try Self.checkId(id)
        try await store.deletePushSubscription(userId: viewer.id, clientId: id)
    }

    static func checkId(_ id: String) throws {
        guard Validation.isValidClientId(id) else {
            throw APIError.badParameter("id", "A subscription id is 1 to 64 of A-Z, a-z, 0-9, '_' and '-'.")
        }
    }

    static func info(_ stored: StoredPushSubscription) -> PushSubscriptionInfo {
        PushSubscriptionInfo(
            id: stored.clientId, endpoint: stored.target.endpoint, preview: stored.target.preview,
            createdAt: stored.createdAt)
    }
}
