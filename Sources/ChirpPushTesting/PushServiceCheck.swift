import ChirpPush
import Crypto
import Foundation
import JWTKit

/// What a push service checks of a push request before it takes it (RFC 8030 §5, RFC 8291,
/// RFC 8292): the VAPID header (the JWT's ES256 signature against `k`, `aud` its own origin,
/// `exp` ahead by at most 24 hours, `sub`; `k` the subscription's application server key when
/// it has one), `TTL`, `Topic`, `Content-Encoding`, and that the body decrypts.
struct PushServiceCheck {
    /// A refusal: the status to answer and why.
    struct Refusal: Error {
        var status: Int
        var reason: String
    }

    var origin: String
    var subscription: TestPushSubscription

    /// The push the request carries, decrypted, or why it is refused.
    func check(headers: [String: String], body: Data) async throws(Refusal) -> ReceivedPush {
        try await checkAuthorization(headers["authorization"])
        guard let ttl = headers["ttl"].flatMap(Int.init), ttl >= 0 else {
            throw Refusal(status: 400, reason: "TTL missing or not a number")
        }
        if let topic = headers["topic"], PushTopic(topic) == nil {
            throw Refusal(status: 400, reason: "Topic not 32 characters of base64url at most")
        }
        guard headers["content-encoding"] == "aes128gcm" else {
            throw Refusal(status: 415, reason: "Content-Encoding not aes128gcm")
        }
        let payload: Data
        do {
            payload = try subscription.decryptor.decrypt(body)
        } catch {
            throw Refusal(status: 400, reason: "body does not decrypt: \(error)")
        }
        return ReceivedPush(
            subscriptionID: subscription.id, timeToLive: ttl, urgency: headers["urgency"], topic: headers["topic"],
            payload: payload)
    }

    private func checkAuthorization(_ header: String?) async throws(Refusal) {
        guard let header, let authorization = VAPIDAuthorization(headerValue: header) else {
            throw Refusal(status: 401, reason: "no VAPID Authorization")
        }
        if let expected = subscription.applicationServerKey, expected != authorization.publicKey {
            throw Refusal(status: 403, reason: "k is not the subscription's application server key")
        }
        do {
            guard let point = Data(base64URLEncoded: authorization.publicKey) else {
                throw Refusal(status: 401, reason: "k is not base64url")
            }
            let publicKey = try P256.Signing.PublicKey(x963Representation: point)
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PublicKey(backing: publicKey))
            let claims = try await keys.verify(authorization.token, as: VAPIDClaims.self)
            try claims.check(audience: origin)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(status: 401, reason: "VAPID token refused: \(error)")
        }
    }
}
