import ChirpModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Attachments: upload (whole or in parts), where an upload stands, and download with
/// `Range`, `ETag` and `If-None-Match`.
struct MediaRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let media = services.media
        let fileIO = FileIO()
        authenticated.add(.uploadMedia) { request, context in
            let upload = MediaService.UploadRequest(
                clientMediaId: try context.pathParameter("clientMediaId"),
                contentType: request.headers[.contentType],
                filename: request.uri.queryParameters.get("filename"),
                contentLength: request.headers[.contentLength].flatMap { Int64($0) },
                contentRange: request.headers[.contentRange])
            switch try await Self.storageErrors { try await media.upload(context.viewer, upload, body: request.body) } {
            case .created(let stored): return try JSONResponse.make(stored, status: .created)
            case .existing(let stored): return try JSONResponse.make(stored)
            case .partial(let status): return try JSONResponse.make(status, status: .accepted)
            }
        }
        authenticated.add(.mediaUploadStatus) { _, context in
            try JSONResponse.make(
                try await media.uploadStatus(context.viewer, clientMediaId: try context.pathParameter("clientMediaId")))
        }
        authenticated.add(.downloadMedia) { request, context in
            let (stored, path) = try await media.readable(context.viewer, id: try context.pathParameter("id"))
            var headers = Self.headers(for: stored)
            if let tags = request.headers[.ifNoneMatch], Self.matches(tags, etag: headers[.eTag]!) {
                return Response(status: .notModified, headers: headers)
            }
            let range: ClosedRange<Int64>
            switch request.headers[.range].map({ ByteRange.parse($0, size: stored.size) }) ?? .whole {
            case .whole:
                return Response(
                    status: .ok, headers: headers,
                    body: try await Self.fileBody { try await fileIO.loadFile(path: path, context: context) })
            case .unsatisfiable:
                var response = JSONResponse.error(
                    APIError(
                        .rangeNotSatisfiable, "range_not_satisfiable",
                        "The media is \(stored.size) bytes; ask for a range within it.",
                        field: "Range"))
                response.headers[.contentRange] = "bytes */\(stored.size)"
                return response
            case .part(let part):
                range = part
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(stored.size)"
            let body = try await Self.fileBody {
                try await fileIO.loadFile(
                    path: path, range: Int(range.lowerBound)...Int(range.upperBound), context: context)
            }
            return Response(status: .partialContent, headers: headers, body: body)
        }
    }

    /// The body `load` opens, or 503 when the disk cannot give the file: the media's record
    /// exists, so a missing or unreadable file is the server's trouble, not the request's.
    static func fileBody(_ load: () async throws -> ResponseBody) async throws -> ResponseBody {
        do {
            return try await load()
        } catch {
            throw APIError.mediaFileUnavailable
        }
    }

    /// The headers every answer about this media carries.
    static func headers(for media: Media) -> HTTPFields {
        var headers = HTTPFields()
        // Only the four image types are served as declared; anything else as opaque bytes, so
        // no uploader-chosen type (text/html, say) is ever rendered from this origin.
        let inline = Media.inlineImageTypes.contains(media.contentType)
        headers[.contentType] = inline ? media.contentType : "application/octet-stream"
        headers[.eTag] = "\"\(media.sha256)\""
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "private, max-age=31536000"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        if !inline {
            headers[.contentDisposition] = "attachment" + (media.filename.map(Self.filenameParameter) ?? "")
        }
        return headers
    }

    /// `; filename="…"` with an ASCII fallback and `filename*` (RFC 6266) for the real name.
    static func filenameParameter(_ name: String) -> String {
        let ascii = String(
            name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 ? Character($0) : "_" }
        )
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        return "; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    /// Whether an `If-None-Match` list names this entity tag (weak or strong) or is `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { tag in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == etag || trimmed == "W/" + etag
        }
    }

    /// File-system failures answer 503 (retry), never 500.
    static func storageErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as MediaFileError {
            throw APIError(
                .serviceUnavailable, APIErrorCode.unavailable, "The media storage failed (\(error)); retry shortly.",
                retryAfter: 1)
        } catch let error as CocoaError {
            throw APIError(
                .serviceUnavailable, APIErrorCode.unavailable,
                "The media storage failed (\(error.code.rawValue)); retry shortly.", retryAfter: 1)
        }
    }
}

/// One `Range: bytes=…` request, resolved against a size.
enum ByteRange: Equatable {
    /// No usable `Range` (absent, another unit, several ranges): the whole body.
    case whole
    /// A range outside the media (416).
    case unsatisfiable
    /// The bytes to send, clamped to the size.
    case part(ClosedRange<Int64>)

    /// Resolves `bytes=A-B`, `bytes=A-` or `bytes=-N` against `size`.
    static func parse(_ header: String, size: Int64) -> ByteRange {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(",") else { return .whole }
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard bounds.count == 2 else { return .whole }
        if bounds[0].isEmpty {
            guard let suffix = Int64(bounds[1]) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        guard let first = Int64(bounds[0]), first >= 0 else { return .whole }
        guard first < size else { return .unsatisfiable }
        if bounds[1].isEmpty { return .part(first...(size - 1)) }
        guard let last = Int64(bounds[1]), last >= first else { return .whole }
        return .part(first...min(last, size - 1))
    }
}
