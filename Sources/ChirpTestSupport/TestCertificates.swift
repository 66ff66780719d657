import Foundation

/// A certificate authority and a server certificate it signed for `localhost` and `127.0.0.1`,
/// made for one test by the `openssl` command and written as PEM files in a directory of their
/// own: `ca.pem` for the client to trust (`CHIRP_CA_CERT`), `server.pem` and `server-key.pem`
/// for `chirp serve --tls-cert --tls-key`. P-256 keys, valid for a day.
///
/// (swift-certificates made them in process; it was the only user of that package and of
/// swift-asn1, whose compilation a newcomer's first build no longer waits for.)
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    public var keyFile: String { directory.appendingPathComponent("server-key.pem").path }

    /// What `openssl` reads: the names and the extensions of both certificates.
    static let configuration = """
        [req]
        distinguished_name = name
        prompt = no
        [name]
        CN = Chirp test CA
        [ca]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [server]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:localhost, IP:127.0.0.1
        authorityKeyIdentifier = keyid

        """

    /// Makes the authority and the server certificate (three `openssl` runs).
    public static func make() async throws -> TestCertificates {
        let certificates = TestCertificates(directory: ServerProcess.temporaryDirectory())
        try FileManager.default.createDirectory(at: certificates.directory, withIntermediateDirectories: true)
        let path = { (name: String) in certificates.directory.appendingPathComponent(name).path }
        try configuration.write(toFile: path("openssl.cnf"), atomically: true, encoding: .utf8)
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try await openssl(
            ["req", "-x509", "-config", path("openssl.cnf"), "-extensions", "ca", "-days", "1"]
                + newKey + ["-keyout", path("ca-key.pem"), "-out", certificates.caFile])
        try await openssl(
            ["req", "-new", "-config", path("openssl.cnf"), "-subj", "/CN=localhost"]
                + newKey + ["-keyout", certificates.keyFile, "-out", path("server.csr")])
        try await openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", certificates.caFile, "-CAkey", path("ca-key.pem"),
            "-set_serial", String(UInt32.random(in: 1...UInt32.max)), "-days", "1",
            "-extfile", path("openssl.cnf"), "-extensions", "server", "-out", certificates.certificateFile,
        ])
        return certificates
    }

    /// Runs `openssl ARGUMENTS`, throwing what it printed when it fails.
    static func openssl(_ arguments: [String]) async throws {
        let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestCertificatesError(
                description: "the TLS tests need the openssl command (Debian: apt-get install openssl)")
        }
        let ran = try await SpawnedProcess.run(URL(fileURLWithPath: executable), arguments, limit: .seconds(60))
        guard ran.status == 0, ran.reason == .exit else {
            throw TestCertificatesError(
                description: "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(ran.output)")
        }
    }

    /// Removes the files.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Why test certificates could not be made.
public struct TestCertificatesError: Error, CustomStringConvertible {
    public var description: String
}
