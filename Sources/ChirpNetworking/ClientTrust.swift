import Foundation
import NIOSSL

/// Which servers an `https://` or `wss://` connection trusts: the system's certificate
/// authorities, plus those of a PEM file when one is named — a private CA, or a self-signed
/// server certificate. The CLI and the terminal app read the file's path from
/// `CHIRP_CA_CERT`.
public struct ClientTrust: Sendable {
    /// The environment variable naming the extra PEM file.
    public static let environmentVariable = "CHIRP_CA_CERT"

    /// The TLS settings for connections (nil: the system's defaults).
    public let tlsConfiguration: TLSConfiguration?
    /// Why the named file cannot be used; connections then fail with this rather than fall
    /// back to the system's trust silently.
    public let problem: String?

    /// Trusts the certificates in `caCertificateFile` besides the system's (nil: only the system's).
    public init(caCertificateFile path: String?) {
        guard let path, !path.isEmpty else {
            tlsConfiguration = nil
            problem = nil
            return
        }
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(path)
            guard !certificates.isEmpty else { throw NIOSSLError.failedToLoadCertificate }
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.additionalTrustRoots = [.certificates(certificates)]
            tlsConfiguration = configuration
            problem = nil
        } catch {
            tlsConfiguration = nil
            problem = "\(Self.environmentVariable): cannot use \(path) as PEM certificates (\(error))"
        }
    }

    /// The trust `CHIRP_CA_CERT` names in this process's environment.
    public static let environment = ClientTrust(
        caCertificateFile: ProcessInfo.processInfo.environment[environmentVariable])
}
