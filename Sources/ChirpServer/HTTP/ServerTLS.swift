import Foundation
import NIOSSL

/// The server's certificate chain and private key for HTTPS and WSS without a proxy
/// (`chirp serve --tls-cert PEM --tls-key PEM`), loaded and checked once at start-up so that an
/// unreadable file, a file with no certificate or key in it, or a key that does not belong to
/// the certificate stops the server with a sentence saying which.
public struct ServerTLS: Sendable {
    /// Why the files cannot be used.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The configuration `HummingbirdTLS` serves connections with (HTTP/1.1).
    let configuration: TLSConfiguration

    public init(certificateFile: String, keyFile: String) throws(LoadError) {
        for (option, path) in [("--tls-cert", certificateFile), ("--tls-key", keyFile)] where !FileManager.default.isReadableFile(atPath: path) {
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
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.applicationProtocols = ["http/1.1"]
        do {
            _ = try NIOSSLContext(configuration: configuration)  // checks that the key is the certificate's
        } catch {
            throw LoadError(description: "--tls-key: \(keyFile) does not go with the certificate in \(certificateFile) (\(error))")
        }
        self.configuration = configuration
    }
}
