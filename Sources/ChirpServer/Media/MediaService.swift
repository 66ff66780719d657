import ChirpModels
import Foundation
import Logging
import NIOCore
import NIOPosix

/// Attachments (API.md part 2, "Media"): uploads streamed to disk with their sha256 computed
/// on the way (whole or in parts, idempotent by client id: a whole upload under a used id is
/// only compared, `RepeatedUpload`), access checks for downloads, the
/// media a send may carry, and the sweep of media nobody references.
struct MediaService: Sendable {
    let store: any MediaStore
    let files: MediaFiles
    let maxBytes: Int64
    /// Stored media, unfinished uploads and whole uploads in flight against each user's quota.
    let quota: MediaQuota
    let unreferencedLifetime: Duration
    let now: @Sendable () -> Timestamp
    let locks = UploadLocks()

    /// What an upload request did.
    enum UploadResult: Sendable {
        /// Stored now (201).
        case created(Media)
        /// Stored before under this client id with the same bytes (200).
        case existing(Media)
        /// A part stored; more to come (202).
        case partial(MediaUploadStatus)
    }

    /// How an upload was described by its request's headers.
    struct UploadRequest: Sendable {
        var clientMediaId: String
        var contentType: String?
        var filename: String?
        var contentLength: Int64?
        var contentRange: String?
    }

    /// Stores the body of `PUT /v1/media/{clientMediaId}`: the whole media, or with a
    /// `Content-Range` one part of it.
    func upload<Body: AsyncSequence & Sendable>(_ viewer: Viewer, _ request: UploadRequest, body: Body) async throws
        -> UploadResult
    where Body.Element == ByteBuffer {
        guard Validation.isValidClientId(request.clientMediaId) else {
            throw APIError.badParameter(
                "clientMediaId", "A clientMediaId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        let contentType = try Self.mediaType(request.contentType)
        let filename = try Self.filename(request.filename)
        if let header = request.contentRange {
            guard let range = ContentRange(header) else {
                throw APIError.badParameter(
                    "Content-Range", "Content-Range must be 'bytes FIRST-LAST/TOTAL' with FIRST <= LAST < TOTAL.")
            }
            if let length = request.contentLength, length != range.length {
                throw APIError.badParameter(
                    "Content-Range", "The body is \(length) bytes but Content-Range names \(range.length).")
            }
            return try await locks.withLock("\(viewer.id)/\(request.clientMediaId)") {
                try await uploadPart(
                    viewer, request, range: range, contentType: contentType, filename: filename, body: body)
            }
        }
        if let existing = try await store.media(owner: viewer.id, clientMediaId: request.clientMediaId) {
            // A retry, or the id reused: compared as it streams, never written (no quota).
            return .existing(
                try await RepeatedUpload(stored: existing).compare(body, contentLength: request.contentLength))
        }
        if let length = request.contentLength, length > maxBytes { throw tooLarge() }
        // The declared length is held against the quota while the body arrives (the largest
        // media when none is declared), so concurrent uploads cannot pass it together.
        let declared = request.contentLength ?? maxBytes
        let limit = min(declared, maxBytes)
        return try await quota.whole(owner: viewer.id, bytes: declared) {
            let received = try await receive(body, limit: limit)
            do {
                guard MediaTypeSniffer.agrees(contentType, head: received.head) else {
                    throw Self.typeMismatch(contentType)
                }
                try await files.commit(received.path, sha256: received.sha256)
            } catch {
                await files.remove(received.path)
                throw error
            }
            return try await record(
                viewer, request.clientMediaId, contentType: contentType, filename: filename, size: received.size,
                sha256: received.sha256)
        }
    }

    /// Where a resumable upload stands: its received bytes and declared total.
    func uploadStatus(_ viewer: Viewer, clientMediaId: String) async throws -> MediaUploadStatus {
        guard Validation.isValidClientId(clientMediaId) else {
            throw APIError.badParameter(
                "clientMediaId", "A clientMediaId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        if let media = try await store.media(owner: viewer.id, clientMediaId: clientMediaId) {
            return MediaUploadStatus(received: media.size, total: media.size)
        }
        await locks.settle("\(viewer.id)/\(clientMediaId)")
        let paths = files.partPaths(owner: viewer.id, clientMediaId: clientMediaId)
        guard let meta = try? await PartMeta.read(paths.meta) else { return MediaUploadStatus(received: 0, total: nil) }
        return MediaUploadStatus(received: try await files.size(paths.part) ?? 0, total: meta.total)
    }

    /// The media `viewer` may read under this id, with the path of its bytes; 404 otherwise.
    func readable(_ viewer: Viewer, id rawId: String) async throws -> (media: Media, path: String) {
        guard let id = Validation.parseId(rawId), let media = try await store.readableMedia(id: id, viewer: viewer.id)
        else {
            throw Self.notFound
        }
        return (media, files.blobPath(media.sha256))
    }

    /// The sender's media for these ids, in their order: at most 4, each uploaded by the sender,
    /// no repeats; else 422 `invalid_media`.
    func attachable(_ viewer: Viewer, ids: [String]) async throws -> [Media] {
        guard !ids.isEmpty else { return [] }
        guard ids.count <= Media.maxPerMessage else {
            throw APIError(
                .unprocessableContent, Self.invalidMediaCode, "A message carries at most \(Media.maxPerMessage) media.",
                field: "mediaIds")
        }
        let parsed = ids.compactMap(Validation.parseId)
        guard parsed.count == ids.count, Set(parsed).count == parsed.count else {
            throw APIError(
                .unprocessableContent, Self.invalidMediaCode, "mediaIds must be distinct ids of media you uploaded.",
                field: "mediaIds")
        }
        let owned = Dictionary(
            uniqueKeysWithValues: try await store.ownedMedia(owner: viewer.id, ids: parsed).map { ($0.id, $0) })
        return try ids.map { id in
            guard let media = owned[String(Validation.parseId(id)!)] else {
                throw APIError(
                    .unprocessableContent, Self.invalidMediaCode,
                    "There is no media \(id.prefix(32)) of yours; upload it first.", field: "mediaIds")
            }
            return media
        }
    }

    /// Deletes media no message carries that is older than `unreferencedLifetime`, their bytes
    /// when nothing else names them, and abandoned uploads; returns how many media went.
    @discardableResult
    func sweep() async throws -> Int {
        let cutoff = Timestamp(millisecondsSince1970: now().millisecondsSince1970 - unreferencedLifetime.milliseconds)
        var deleted = 0
        while true {
            let shas = try await store.deleteUnreferencedMedia(before: cutoff, limit: 500)
            for sha in shas where try await !store.isStored(sha256: sha) {
                await files.remove(files.blobPath(sha))
            }
            deleted += shas.count
            if shas.count < 500 { break }
        }
        // Files carry the wall clock's times, not the server's (injectable) clock.
        _ = try await files.removeAbandoned(
            before: Date(timeIntervalSinceNow: -Double(unreferencedLifetime.milliseconds) / 1000))
        return deleted
    }

    // MARK: parts

    private func uploadPart<Body: AsyncSequence & Sendable>(
        _ viewer: Viewer, _ request: UploadRequest, range: ContentRange, contentType: String, filename: String?,
        body: Body
    ) async throws -> UploadResult where Body.Element == ByteBuffer {
        if let existing = try await store.media(owner: viewer.id, clientMediaId: request.clientMediaId) {
            // A retried last part whose answer was lost.
            guard existing.size == range.total, range.last == range.total - 1 else { throw Self.clientMediaIdReused }
            return .existing(existing)
        }
        if range.total > maxBytes { throw tooLarge() }
        let paths = files.partPaths(owner: viewer.id, clientMediaId: request.clientMediaId)
        let meta: PartMeta
        if let stored = try? await PartMeta.read(paths.meta) {
            meta = stored
        } else {
            // Its description on disk is what makes an unfinished upload count (`MediaQuota`).
            meta = PartMeta(total: range.total, contentType: contentType, filename: filename)
            try await quota.startParts(owner: viewer.id, clientMediaId: request.clientMediaId, total: range.total) {
                try await meta.write(paths.meta)
            }
        }
        let received = try await files.size(paths.part) ?? 0
        guard range.first == received, meta.total == range.total else {
            throw APIError(
                .conflict, Self.offsetMismatchCode,
                "The server holds \(received) of \(meta.total) bytes; send the part that starts there.",
                field: String(received))
        }
        let writer = try await MediaFileWriter.open(path: paths.part, create: false)
        // A cut keeps what arrived: the gathered bytes are written before the error goes up.
        do {
            try await receivePart(body, into: writer, range: range)
            try await writer.sync()
            await writer.close()
        } catch {
            try? await writer.flush()
            await writer.close()
            throw error
        }
        let now = try await files.size(paths.part) ?? 0
        guard now == meta.total else { return .partial(MediaUploadStatus(received: now, total: meta.total)) }
        return try await completePart(viewer, request, paths: paths, meta: meta)
    }

    private func receivePart<Body: AsyncSequence & Sendable>(
        _ body: Body, into writer: MediaFileWriter, range: ContentRange
    ) async throws where Body.Element == ByteBuffer {
        var written: Int64 = 0
        for try await buffer in body {
            guard written + Int64(buffer.readableBytes) <= range.length else {
                // The bytes up to the part's end are kept (flushed by the caller), no more.
                throw APIError.badParameter("Content-Range", "The body is longer than the part Content-Range names.")
            }
            try await writer.append(buffer)
            written += Int64(buffer.readableBytes)
        }
    }

    private func completePart(
        _ viewer: Viewer, _ request: UploadRequest, paths: (part: String, meta: String), meta: PartMeta
    ) async throws -> UploadResult {
        let (sha256, head) = try await files.digest(paths.part, headCount: MediaContentType.headLength)
        guard MediaTypeSniffer.agrees(meta.contentType, head: head) else {
            await files.remove(paths.part)
            await files.remove(paths.meta)
            throw Self.typeMismatch(meta.contentType)
        }
        try await quota.finishParts(owner: viewer.id, clientMediaId: request.clientMediaId, total: meta.total)
        try await files.commit(paths.part, sha256: sha256)
        await files.remove(paths.meta)
        return try await record(
            viewer, request.clientMediaId, contentType: meta.contentType, filename: meta.filename, size: meta.total,
            sha256: sha256)
    }

    // MARK: helpers

    /// Records bytes already committed under their sha256.
    private func record(
        _ viewer: Viewer, _ clientMediaId: String, contentType: String, filename: String?, size: Int64, sha256: String
    ) async throws -> UploadResult {
        let outcome = try await store.insertMedia(
            NewMedia(
                owner: viewer.id, clientMediaId: clientMediaId, contentType: contentType, size: size, sha256: sha256,
                filename: filename, createdAt: now()))
        if outcome.created { return .created(outcome.value) }
        // Another request under the same client id recorded first.
        guard outcome.value.sha256 == sha256 else { throw Self.clientMediaIdReused }
        return .existing(outcome.value)
    }

    /// A body written to a temporary file, fsynced: its path, size, sha256 and first bytes.
    struct Received: Sendable {
        var path: String
        var size: Int64
        var sha256: String
        var head: [UInt8]
    }

    /// Streams `body` into a new temporary file, hashed as it is written (`MediaFileWriter`),
    /// and fsynced; 413 past `limit` (the file is then removed).
    private func receive<Body: AsyncSequence & Sendable>(
        _ body: Body, limit: Int64
    ) async throws -> Received where Body.Element == ByteBuffer {
        let writer = try await files.temporaryFile()
        do {
            var size: Int64 = 0
            var head: [UInt8] = []
            for try await buffer in body {
                size += Int64(buffer.readableBytes)
                if size > limit { throw tooLarge() }
                if head.count < MediaContentType.headLength {
                    head +=
                        buffer.getBytes(
                            at: buffer.readerIndex,
                            length: min(buffer.readableBytes, MediaContentType.headLength - head.count)) ?? []
                }
                try await writer.append(buffer)
            }
            try await writer.sync()
            await writer.close()
            return Received(path: writer.path, size: size, sha256: writer.sha256() ?? "", head: head)
        } catch {
            await writer.close()
            await files.remove(writer.path)
            throw error
        }
    }

    static let invalidMediaCode = "invalid_media"
    static let offsetMismatchCode = "upload_offset_mismatch"

    static let notFound = APIError(.notFound, "media_not_found", "There is no such media, or it is not yours to see.")
    static let clientMediaIdReused = APIError(
        .conflict, APIErrorCode.clientIdReused,
        "This clientMediaId was already used for other bytes; pick a new one.", field: "clientMediaId")

    static func typeMismatch(_ type: String) -> APIError {
        APIError(
            .unprocessableContent, "media_type_mismatch",
            "The bytes are not \(type.prefix(64)); send the type they are.",
            field: "Content-Type")
    }

    func tooLarge() -> APIError {
        APIError(.contentTooLarge, "media_too_large", "A media is at most \(maxBytes) bytes.")
    }

    /// The declared type, lowercased without parameters (default `application/octet-stream`);
    /// 400 unless it is `type/subtype` of token characters.
    static func mediaType(_ header: String?) throws -> String {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else {
            return "application/octet-stream"
        }
        let type = header.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased()
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 64 && $0.allSatisfy(token.contains) })
        else {
            throw APIError.badParameter("Content-Type", "Content-Type must be a media type such as image/png.")
        }
        return type
    }

    /// The `?filename=`: 1–255 characters, no control characters, no slashes; nil when absent.
    static func filename(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard (1...255).contains(value.unicodeScalars.count),
            !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "/" || $0 == "\\" })
        else {
            throw APIError.badParameter(
                "filename", "A filename is 1 to 255 characters, without slashes or control characters.")
        }
        return value
    }
}

/// What the first part of an upload declared, kept beside its bytes.
struct PartMeta: Codable, Sendable {
    var total: Int64
    var contentType: String
    var filename: String?

    // File calls block: on NIO's thread pool, as every other media file call (`MediaFiles`).
    static func read(_ path: String) async throws -> PartMeta {
        try await NIOThreadPool.singleton.runIfActive {
            try JSONDecoder().decode(PartMeta.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    func write(_ path: String) async throws {
        let meta = self
        try await NIOThreadPool.singleton.runIfActive {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(meta).write(to: url, options: .atomic)
        }
    }
}
