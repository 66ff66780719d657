import ChirpPush
import Crypto
import Foundation
import JWTKit
import Synchronization
import Testing

/// The VAPID key (kept once made) and the token (RFC 8292) the push services check.
@Suite("VAPID")
struct VAPIDTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vapid-\(UUID().uuidString).pem").path
    }

    /// The claims of `token`, once its signature holds against `publicKey` (base64url point).
    func verifiedClaims(_ token: String, publicKey: String) async throws -> VAPIDClaims {
        let point = try #require(Data(base64URLEncoded: publicKey))
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(backing: P256.Signing.PublicKey(x963Representation: point)))
        return try await keys.verify(token, as: VAPIDClaims.self)
    }

    @Test func theKeyIsMadeOnceKeptInAPrivateFileAndLoadedAgain() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }

        let made = try VAPIDKey.loadOrCreate(at: path)
        let loaded = try VAPIDKey.loadOrCreate(at: path)

        #expect(loaded.rawRepresentation == made.rawRepresentation)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func aKeyFileOfRawBytesOrTheDatabasesBytesGiveTheSameKey() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = VAPIDKey.generate()
        try key.rawRepresentation.write(to: URL(fileURLWithPath: path))

        #expect(try VAPIDKey.loadOrCreate(at: path).publicKeyBase64URL == key.publicKeyBase64URL)
        #expect(try VAPIDKey(rawRepresentation: key.rawRepresentation).publicKeyBase64URL == key.publicKeyBase64URL)
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: VAPIDKeyError.unreadable(path: path)) { try VAPIDKey.loadOrCreate(at: path) }
    }

    @Test func thePublicKeyIsTheUncompressedPointInBase64URL() throws {
        let key = VAPIDKey.generate()
        let point = try #require(Data(base64URLEncoded: key.publicKeyBase64URL))
        #expect(point.count == 65 && point.first == 4)
        #expect(key.publicKeyBase64URL.count == 87)
        #expect(!key.publicKeyBase64URL.contains { "+/=".contains($0) })
    }

    @Test func theTokenVerifiesWithThePublicKeyAndNamesTheOriginTwelveHoursAndTheContact() async throws {
        let key = VAPIDKey.generate()
        let second = Date().timeIntervalSince1970.rounded(.down)
        let now = Date(timeIntervalSince1970: second + 0.75)
        let signer = try VAPIDSigner(key: key, subject: "mailto:ops@chirp.example", now: { now })

        let authorization = try await signer.authorization(
            for: URL(string: "https://push.example.net:8443/wpush/v2/abc?x=1")!)

        #expect(authorization.publicKey == key.publicKeyBase64URL)
        #expect(VAPIDAuthorization(headerValue: authorization.headerValue) == authorization)
        #expect(authorization.headerValue.hasPrefix("vapid t=ey"))
        let claims = try await verifiedClaims(authorization.token, publicKey: authorization.publicKey)
        #expect(claims.aud.value == ["https://push.example.net:8443"])
        #expect(claims.exp.value == Date(timeIntervalSince1970: second + 12 * 3600))
        #expect(claims.sub.value == "mailto:ops@chirp.example")
        #expect(throws: Never.self) { try claims.check(audience: "https://push.example.net:8443", now: now) }
        // The header and claims as a push service reads them: ES256, exp a whole number.
        let parts = authorization.token.split(separator: ".").map(String.init)
        let header = try #require(Data(base64URLEncoded: parts[0]))
        let payload = try #require(Data(base64URLEncoded: parts[1]))
        #expect(String(decoding: header, as: UTF8.self).contains(#""alg":"ES256""#))
        #expect(String(decoding: payload, as: UTF8.self).contains(#""exp":\#(Int(second) + 12 * 3600)"#))
    }

    @Test func aTokenSignedByAnotherKeyDoesNotVerify() async throws {
        let signer = try VAPIDSigner(key: .generate(), subject: "https://chirp.example/contact")
        let authorization = try await signer.authorization(for: URL(string: "https://push.example.net/x")!)
        await #expect(throws: (any Error).self) {
            try await verifiedClaims(authorization.token, publicKey: VAPIDKey.generate().publicKeyBase64URL)
        }
    }

    @Test func aTokenIsKeptPerPushServiceUntilAnHourBeforeItEnds() async throws {
        let clock = TestClock()
        let signer = try VAPIDSigner(key: .generate(), subject: "mailto:ops@chirp.example", now: { clock.now })
        let first = URL(string: "https://push.example.net/a")!
        let sameOrigin = URL(string: "https://push.example.net/b")!
        let otherOrigin = URL(string: "https://fcm.example.com/a")!

        let token = try await signer.authorization(for: first).token
        #expect(try await signer.authorization(for: sameOrigin).token == token)
        #expect(try await signer.authorization(for: otherOrigin).token != token)

        clock.advance(by: 10 * 3600)
        #expect(try await signer.authorization(for: first).token == token)
        clock.advance(by: 3600 + 1)
        #expect(try await signer.authorization(for: first).token != token)
    }

    @Test func theContactIsAMailtoOrHTTPSURL() {
        #expect(throws: VAPIDClaimsError.badSubject("ops@chirp.example")) {
            try VAPIDSigner(key: .generate(), subject: "ops@chirp.example")
        }
    }

    @Test func aPushServiceRefusesAnotherAudienceAndAnExpiryTooFarOrPast() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let claims = { (audience: String, seconds: TimeInterval, subject: String) in
            VAPIDClaims(audience: audience, expiresAt: now + seconds, subject: subject)
        }
        let origin = "https://push.example.net"
        #expect(throws: VAPIDClaimsError.wrongAudience(["https://other.example"])) {
            try claims("https://other.example", 3600, "mailto:a@b").check(audience: origin, now: now)
        }
        #expect(throws: VAPIDClaimsError.expired) {
            try claims(origin, -1, "mailto:a@b").check(audience: origin, now: now)
        }
        #expect(throws: VAPIDClaimsError.expiresTooLate) {
            try claims(origin, 24 * 3600 + 1, "mailto:a@b").check(audience: origin, now: now)
        }
        #expect(throws: VAPIDClaimsError.badSubject("")) {
            try claims(origin, 3600, "").check(audience: origin, now: now)
        }
    }

    @Test func theAudienceIsTheEndpointsOrigin() throws {
        let origin = { (url: String) throws in try PushEndpoint.origin(of: URL(string: url)!) }
        #expect(try origin("https://Push.Example.net/a/b?c") == "https://push.example.net")
        #expect(try origin("https://push.example.net:443/a") == "https://push.example.net")
        #expect(try origin("http://127.0.0.1:8080/push/1") == "http://127.0.0.1:8080")
        #expect(throws: PushEndpointError.notHTTP("ftp://push.example.net/a")) {
            try origin("ftp://push.example.net/a")
        }
    }
}

/// A clock the test moves.
final class TestClock: Sendable {
    private let seconds = Mutex<TimeInterval>(1_800_000_000)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(by interval: TimeInterval) { seconds.withLock { $0 += interval } }
}
