import ChirpPush
import Crypto
import Foundation
import Testing

/// What is sent: the payload bound, the topic, and the request's headers.
@Suite("Push message")
struct PushMessageTests {
    let keys = try! PushSubscriptionKeys(
        p256dh: P256.KeyAgreement.PrivateKey().publicKey, auth: Data(repeating: 1, count: 16))
    let endpoint = URL(string: "https://push.example.net/wpush/abc")!

    @Test func aPayloadOverThreeKilobytesIsRefused() throws {
        let limit = Data(repeating: 0x20, count: 3072)
        #expect(throws: Never.self) { try PushMessage(endpoint: endpoint, keys: keys, payload: limit, topic: nil) }
        #expect(throws: PushMessageError.payloadTooLarge(3073)) {
            try PushMessage(endpoint: endpoint, keys: keys, payload: limit + [0x20], topic: nil)
        }
    }

    @Test func aConversationsTopicIsThirtyTwoURLSafeCharactersAndItsOwn() {
        let topic = PushTopic(conversation: "d:1:2")
        #expect(topic.value.count == 32)
        #expect(PushTopic(topic.value) == topic)
        #expect(PushTopic(conversation: "d:1:2") == topic)
        #expect(PushTopic(conversation: "g:7") != topic)
        #expect(PushTopic(String(repeating: "a", count: 33)) == nil)
        #expect(PushTopic("a+b") == nil)
        #expect(PushTopic("") == nil)
    }

    @Test func theRequestCarriesTheRFC8030HeadersAndTheEncryptedBody() async throws {
        let key = VAPIDKey.generate()
        let signer = try VAPIDSigner(key: key, subject: "mailto:ops@chirp.example")
        let topic = PushTopic(conversation: "g:7")
        let message = try PushMessage(endpoint: endpoint, keys: keys, payload: Data("{}".utf8), topic: topic)

        let request = try await PushRequest(message: message, signer: signer)

        #expect(request.endpoint == endpoint)
        #expect(request.headers["TTL"] == "86400")
        #expect(request.headers["Urgency"] == "high")
        #expect(request.headers["Topic"] == topic.value)
        #expect(request.headers["Content-Encoding"] == "aes128gcm")
        #expect(request.headers["Content-Type"] == "application/octet-stream")
        let authorization = try #require(request.headers["Authorization"].flatMap(VAPIDAuthorization.init))
        #expect(authorization.publicKey == key.publicKeyBase64URL)
        // header, the two bytes of "{}", the delimiter, the tag
        #expect(request.body.count == 105)
    }
}
