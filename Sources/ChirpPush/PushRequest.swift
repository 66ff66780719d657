import Foundation

/// The HTTP request that delivers a `PushMessage` (RFC 8030 §5): a POST to the endpoint with
/// the encrypted body and the `TTL`, `Urgency`, `Topic`, `Content-Encoding`, `Content-Type`
/// and VAPID `Authorization` headers.
public struct PushRequest: Sendable {
    /// Where it goes.
    public let endpoint: URL
    /// Its headers, by name.
    public let headers: [String: String]
    /// The `aes128gcm` body.
    public let body: Data

    /// The request for `message`: the payload encrypted to its keys, the token signed by `signer`.
    public init(
        message: PushMessage, signer: VAPIDSigner, encryptor: PushPayloadEncryptor = PushPayloadEncryptor()
    ) async throws {
        let authorization = try await signer.authorization(for: message.endpoint)
        var headers = [
            "TTL": String(message.timeToLive),
            "Urgency": message.urgency.rawValue,
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Authorization": authorization.headerValue,
        ]
        if let topic = message.topic { headers["Topic"] = topic.value }
        self.endpoint = message.endpoint
        self.headers = headers
        self.body = try encryptor.encrypt(message.payload, for: message.keys)
    }
}
