import ChirpWebClient
import CompressNIO
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web client's files (the `ChirpWebClient` target's `web/`), read once at start-up and
/// served from memory, each also gzip-compressed once (when that makes it smaller) for the
/// requests that accept gzip.
/// Only names found in that directory at start-up are ever served, so no request path can
/// reach another file. The service worker (`sw.js`) gets the list of the other files and a
/// version made of their digests in place of its `'__CHIRP_SHELL__'`, so it precaches all
/// of them and any change to a file is a new service worker (and a new cache).
struct WebAssets: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        let body: ByteBuffer
        /// The body gzip-compressed, when that is smaller.
        let gzipped: ByteBuffer?
        let contentType: String
        /// A strong validator: the first 128 bits of the file's SHA-256, quoted (the gzip
        /// representation's ends in `-gzip`).
        let etag: String
        var gzipETag: String { String(etag.dropLast()) + "-gzip\"" }

        init(data: Data, contentType: String) {
            let body = ByteBuffer(bytes: data)
            var input = body
            let compressed = try? input.compress(with: .gzip(configuration: .init(compressionLevel: .bestCompression)))
            self.body = body
            self.gzipped = compressed.flatMap { $0.readableBytes < body.readableBytes ? $0 : nil }
            self.contentType = contentType
            etag = "\"\(WebAssets.digest(data))\""
        }
    }

    /// What the service worker's source holds in place of the list of files it precaches.
    static let shellPlaceholder = "'__CHIRP_SHELL__'"

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
        var files: [String: Data] = [:]
        let names = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        for name in names where Self.contentType(of: name) != nil {
            if let directory, let data = try? Data(contentsOf: directory.appendingPathComponent(name)) {
                files[name] = data
            }
        }
        if let worker = files["sw.js"] {
            files["sw.js"] = Self.withShell(worker, others: files.filter { $0.key != "sw.js" })
        }
        var assets: [String: Asset] = [:]
        for (name, data) in files {
            if let type = Self.contentType(of: name) { assets[name] = Asset(data: data, contentType: type) }
        }
        self.assets = assets
    }

    /// The service worker `source` with the shell's paths (the page at `/`, the other files
    /// under `/web/`) and their version in place of the placeholder.
    static func withShell(_ source: Data, others: [String: Data]) -> Data {
        let sorted = others.sorted { $0.key < $1.key }
        let version = digest(Data(sorted.map { "\($0.key) \(digest($0.value))\n" }.joined().utf8)).prefix(16)
        let paths = ["/"] + sorted.map(\.key).filter { $0 != "index.html" }.map { WebClientRoutes.prefix + $0 }
        let files = paths.map { "\"\($0)\"" }.joined(separator: ", ")
        let shell = #"{"version": "\#(version)", "files": [\#(files)]}"#
        let text = String(decoding: source, as: UTF8.self).replacingOccurrences(of: shellPlaceholder, with: shell)
        return Data(text.utf8)
    }

    /// The first 128 bits of the SHA-256 of `data`, in hexadecimal.
    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The names of every file served (for tests and the size figure).
    var names: [String] { assets.keys.sorted() }

    /// The response for the file `name`: 200 with the body (gzip-compressed when the request
    /// accepts gzip and that is smaller), or 304 when `If-None-Match` names its current ETag;
    /// `nil` when there is no such file.
    func response(for name: String, request: Request) -> Response? {
        guard let asset = assets[name] else { return nil }
        let gzipped = Self.acceptsGzip(request.headers[values: .acceptEncoding]) ? asset.gzipped : nil
        var headers = HTTPFields()
        headers[.eTag] = gzipped == nil ? asset.etag : asset.gzipETag
        headers[.vary] = "Accept-Encoding"
        // Names are not content-hashed, so a browser revalidates each time (a 304 is cheap).
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        let matches = request.headers[values: .ifNoneMatch]
            .flatMap { $0.split(separator: ",") }
            .contains {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return [asset.etag, asset.gzipETag].contains { tag == $0 || tag == "W/" + $0 } || tag == "*"
            }
        if matches {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        if let gzipped {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// Whether `Accept-Encoding` admits gzip: named (else `*`) with a quality above 0.
    static func acceptsGzip(_ values: [String]) -> Bool {
        var qualities: [String: Double] = [:]
        for item in values.flatMap({ $0.split(separator: ",") }) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            qualities[coding] = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
        }
        return (qualities["gzip"] ?? qualities["x-gzip"] ?? qualities["*"] ?? 0) > 0
    }

    static func contentType(of name: String) -> String? {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json", "webmanifest": "application/manifest+json"
        default: nil
        }
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
