import Crypto
import Foundation

/// The server's VAPID key (RFC 8292): one P-256 signing key per deployment, made once and kept,
/// since every browser subscription is bound to its public half.
public struct VAPIDKey: Sendable {
    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey

    /// The key as it is.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// A new random key.
    public static func generate() -> VAPIDKey {
        VAPIDKey(privateKey: P256.Signing.PrivateKey())
    }

    /// The key from its 32 raw bytes (`rawRepresentation`), as a database keeps it.
    public init(rawRepresentation: some ContiguousBytes) throws {
        self.privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
    }

    /// The 32 raw bytes of the private key, to keep (secret).
    public var rawRepresentation: Data { privateKey.rawRepresentation }

    /// The public key as `GET /v1/push/key` and the `k` of the VAPID header give it: base64url,
    /// no padding, of the uncompressed point (65 bytes, 0x04 | x | y).
    public var publicKeyBase64URL: String {
        privateKey.publicKey.x963Representation.base64URLEncodedString()
    }

    /// The key kept in the file at `path`, or a new one written there (mode 0600) when there is
    /// no file yet. The file holds the key in PEM (PKCS #8) or its 32 raw bytes.
    public static func loadOrCreate(at path: String) throws -> VAPIDKey {
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: path) {
            return try load(Data(contentsOf: url), path: path)
        }
        let key = generate()
        let pem = Data(key.privateKey.pemRepresentation.utf8)
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw VAPIDKeyError.cannotWrite(path: path) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: pem)
        try handle.synchronize()
        return key
    }

    private static func load(_ contents: Data, path: String) throws -> VAPIDKey {
        if contents.count == 32 {
            return try VAPIDKey(rawRepresentation: contents)
        }
        guard let pem = String(data: contents, encoding: .utf8), pem.contains("-----BEGIN") else {
            throw VAPIDKeyError.unreadable(path: path)
        }
        return VAPIDKey(privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem))
    }
}

/// Why a VAPID key file could not be used.
public enum VAPIDKeyError: Error, Equatable {
    /// The file is neither a PEM private key nor 32 raw bytes.
    case unreadable(path: String)
    /// The file could not be created.
    case cannotWrite(path: String)
}
