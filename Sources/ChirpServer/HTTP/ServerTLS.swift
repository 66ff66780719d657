import Foundation
import NIOSSL

/// The server's certificate chain and private key for HTTPS and WSS without a proxy
/// (`chirp serve --tls-cert PEM --tls-key PEM`), loaded and checked once at start-up so that an
/// unreadable file, a file with no certificate or key in it, or a key that does not belong to
/// the certificate stops the server with a sentence saying which.
///
/// Connections speak TLS 1.2 or newer (1.3 only with `--tls-min 1.3`); TLS 1.2 offers only
/// forward-secret AEAD suites (ECDHE with AES-GCM or ChaCha20-Poly1305; swift-nio-ssl's
/// defaults would also take TLS 1.0, 1.1 and suites without forward secrecy or with CBC).
/// TLS 1.3's suites are all forward-secret AEAD.
public struct ServerTLS: Sendable {
    /// The oldest TLS version a client may speak.
    public enum MinimumVersion: String, Sendable, CaseIterable {
        case tls12 = "1.2"
        case tls13 = "1.3"

        var nio: TLSVersion { self == .tls12 ? .tlsv12 : .tlsv13 }
    }

    /// The TLS 1.2 suites offered: ECDHE (forward secrecy) with an AEAD cipher.
    static let tls12Suites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    /// Why the files cannot be used.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The configuration `HummingbirdTLS` serves connections with (HTTP/1.1).
    let configuration: TLSConfiguration

    public init(certificateFile: String, keyFile: String, minimumVersion: MinimumVersion = .tls12) throws(LoadError) {
        for (option, path) in [("--tls-cert", certificateFile), ("--tls-key", keyFile)]
        where !FileManager.default.isReadableFile(atPath: path) {
            throw LoadError(description: "\(option): cannot read \(path)")
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw LoadError(description: "--tls-cert: \(certificateFile) is not a PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw LoadError(description: "--tls-cert: no certificate in \(certificateFile)") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw LoadError(description: "--tls-key: \(keyFile) is not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.applicationProtocols = ["http/1.1"]
        configuration.minimumTLSVersion = minimumVersion.nio
        configuration.cipherSuiteValues = Self.tls12Suites
        do {
            _ = try NIOSSLContext(configuration: configuration)  // checks that the key is the certificate's
        } catch {
            throw LoadError(
                description: "--tls-key: \(keyFile) does not go with the certificate in \(certificateFile) (\(error))")
        }
        self.configuration = configuration
    }
}
