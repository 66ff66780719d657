import ChirpWebClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web client's files (the `ChirpWebClient` target's `web/`), read once at start-up and
/// served from memory.
/// Only names found in that directory at start-up are ever served, so no request path can
/// reach another file.
struct WebAssets: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A strong validator: the first 128 bits of the file's SHA-256, quoted.
        let etag: String
    }

    /// The page's policy: nothing inline, everything from this origin (`'self'` also admits
    /// `ws:`/`wss:` to the same host and port in CSP 3 browsers, which the event stream uses).
    /// `blob:` images are attachments the page fetched itself with its bearer token.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private let assets: [String: Asset]

    /// The files of the web client's resource directory.
    static let bundled = WebAssets(directory: ChirpWebClient.directory)

    init(directory: URL?) {
        var assets: [String: Asset] = [:]
        let names = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        for name in names {
            guard let directory, let type = Self.contentType(of: name),
                let data = try? Data(contentsOf: directory.appendingPathComponent(name))
            else { continue }
            let digest = SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
            assets[name] = Asset(body: ByteBuffer(bytes: data), contentType: type, etag: "\"\(digest)\"")
        }
        self.assets = assets
    }

    /// The names of every file served (for tests and the size figure).
    var names: [String] { assets.keys.sorted() }

    /// The response for the file `name`: 200 with the body, or 304 when `If-None-Match`
    /// names its current ETag; `nil` when there is no such file.
    func response(for name: String, request: Request) -> Response? {
        guard let asset = assets[name] else { return nil }
        var headers = HTTPFields()
        headers[.eTag] = asset.etag
        // Names are not content-hashed, so a browser revalidates each time (a 304 is cheap).
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        let matches = request.headers[values: .ifNoneMatch]
            .flatMap { $0.split(separator: ",") }
            .contains {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == asset.etag || tag == "W/" + asset.etag || tag == "*"
            }
        if matches {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    static func contentType(of name: String) -> String? {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json", "webmanifest": "application/manifest+json"
        default: nil
        }
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
