import ChirpPush
import Crypto
import Foundation

/// A subscription the test push service made, as a browser's `PushSubscription` gives it to an
/// app: the endpoint and the two keys (base64url). The service keeps the private key.
public struct TestPushSubscription: Sendable {
    /// The id in the endpoint's path.
    public let id: String
    /// `http://127.0.0.1:PORT/push/ID`.
    public let endpoint: String
    /// The user agent's ECDH public key: base64url of the uncompressed point.
    public let p256dh: String
    /// The 16-byte authentication secret, base64url.
    public let auth: String
    /// The VAPID public key this subscription is bound to (`applicationServerKey`), if any.
    public let applicationServerKey: String?
    let decryptor: PushPayloadDecryptor

    init(id: String, origin: String, applicationServerKey: String?) {
        let privateKey = P256.KeyAgreement.PrivateKey()
        let authSecret = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        self.id = id
        self.endpoint = "\(origin)/push/\(id)"
        self.p256dh = privateKey.publicKey.x963Representation.base64URLEncodedString()
        self.auth = authSecret.base64URLEncodedString()
        self.applicationServerKey = applicationServerKey
        self.decryptor = PushPayloadDecryptor(privateKey: privateKey, authSecret: authSecret)
    }

    /// The endpoint as a URL.
    public var endpointURL: URL { URL(string: endpoint)! }

    /// The keys, parsed as a server parses a subscription's JSON.
    public var keys: PushSubscriptionKeys { try! PushSubscriptionKeys(p256dh: p256dh, auth: auth) }
}
