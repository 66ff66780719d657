import ChirpModels

/// Client error reports: a batch validated and stored once per user and batch id (a batch
/// sent again is acknowledged as a duplicate), at most `limits.clientLogs` batches per user,
/// and read back for `chirp admin logs`.
struct ClientLogService: Sendable {
    let store: any ClientLogStore
    let now: @Sendable () -> Timestamp
    var limits = RateLimits.off

    func upload(_ viewer: Viewer, _ upload: LogUpload) async throws -> LogUploadReceipt {
        guard Validation.isValidClientId(upload.batchId) else {
            throw APIError(
                .unprocessableContent, "invalid_batch_id",
                "A batchId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).", field: "batchId")
        }
        guard upload.entries.count <= LogUpload.maxEntries else {
            throw APIError(
                .unprocessableContent, "too_many_entries",
                "A batch holds at most \(LogUpload.maxEntries) entries; split it.", field: "entries")
        }
        let entries = try upload.entries.enumerated().map { index, record in try Self.validate(record, index: index) }
        let key = String(viewer.id)
        try await limits.take(limits.clientLogs, key: key, refusal: "You have sent too many log batches")
        let stored: Bool
        do {
            stored = try await store.storeLogs(
                userId: viewer.id, batchId: upload.batchId, entries: entries, receivedAt: now())
        } catch {
            limits.giveBack(limits.clientLogs, key: key)
            throw error
        }
        // A duplicate stored nothing: it does not count.
        if !stored { limits.giveBack(limits.clientLogs, key: key) }
        return LogUploadReceipt(batchId: upload.batchId, accepted: entries.count, duplicate: !stored)
    }

    static func validate(_ record: LogRecord, index: Int) throws -> ClientLogEntry {
        func invalid(_ field: String, _ code: String, _ message: String) -> APIError {
            APIError(.unprocessableContent, code, message, field: "entries[\(index)].\(field)")
        }
        guard LogRecord.levels.contains(record.level) else {
            throw invalid("level", "invalid_level", "level is one of debug, info, warning, error, fatal.")
        }
        guard let loggedAt = Timestamp(rfc3339: record.timestamp) else {
            throw invalid(
                "timestamp", "invalid_timestamp", "timestamp is an RFC 3339 time such as 2026-11-22T10:15:30.123Z.")
        }
        guard record.message.unicodeScalars.count <= 10_000 else {
            throw invalid("message", "message_too_long", "A log message is at most 10,000 characters.")
        }
        guard (record.source?.unicodeScalars.count ?? 0) <= 200 else {
            throw invalid("source", "source_too_long", "A source is at most 200 characters.")
        }
        guard (record.metadata?.count ?? 0) <= 50 else {
            throw invalid("metadata", "too_much_metadata", "An entry has at most 50 metadata keys.")
        }
        let texts = [record.message, record.source ?? ""] + (record.metadata ?? [:]).flatMap { [$0.key, $0.value] }
        guard !texts.contains(where: Validation.containsNUL) else {
            throw invalid("message", "invalid_text", "Log entries cannot contain NUL characters (U+0000).")
        }
        return ClientLogEntry(
            level: record.level, message: record.message, loggedAt: loggedAt, metadata: record.metadata,
            source: record.source)
    }
}
