import ChirpModels
import ChirpPush
import Foundation

/// The server's VAPID key, made once per deployment and kept in the database (`PushStore`),
/// so every instance sharing it signs with the same key; read on first use.
actor PushKeyring {
    static let keyName = "vapid"

    private let store: any PushStore
    private let contact: String
    private let now: @Sendable () -> Timestamp
    private var signer: VAPIDSigner?

    init(store: any PushStore, contact: String, now: @escaping @Sendable () -> Timestamp) {
        self.store = store
        self.contact = contact
        self.now = now
    }

    /// The signer of this deployment's key.
    func vapidSigner() async throws -> VAPIDSigner {
        if let signer { return signer }
        let made = VAPIDKey.generate().rawRepresentation.base64EncodedString()
        let kept = try await store.pushKey(named: Self.keyName, created: made, at: now())
        guard let raw = Data(base64Encoded: kept) else {
            throw StorageError.inconsistent("the stored push key is not base64")
        }
        let signer = try VAPIDSigner(key: try VAPIDKey(rawRepresentation: raw), subject: contact)
        self.signer = signer
        return signer
    }

    /// The public key, as `GET /v1/push/key` gives it.
    func publicKey() async throws -> String {
        try await vapidSigner().key.publicKeyBase64URL
    }
}
