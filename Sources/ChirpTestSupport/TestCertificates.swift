import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority and a server certificate it signed for `localhost` and `127.0.0.1`,
/// made for one test and written as PEM files in a directory of their own: `ca.pem` for the
/// client to trust (`CHIRP_CA_CERT`), `server.pem` and `server-key.pem` for
/// `chirp serve --tls-cert --tls-key`. P-256 keys, valid from an hour ago for a day.
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    public var keyFile: String { directory.appendingPathComponent("server-key.pem").path }

    public init() throws {
        directory = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("Chirp test CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(caKey))
        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: caName,
            subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(caKey))
        try ca.serializeAsPEM().pemString.write(toFile: caFile, atomically: true, encoding: .utf8)
        try server.serializeAsPEM().pemString.write(toFile: certificateFile, atomically: true, encoding: .utf8)
        try serverKey.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
    }

    /// Removes the files.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
