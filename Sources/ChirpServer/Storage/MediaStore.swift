import ChirpModels

/// Media rows: what was uploaded, by whom, and which messages carry it. The bytes themselves
/// are files (`MediaFiles`); a row is written only after its file is durable, so no row ever
/// names missing bytes.
protocol MediaStore: Sendable {
    /// Stores `new` unless the owner already has a media under its client id; returns the
    /// stored one either way (`created` tells which).
    func insertMedia(_ new: NewMedia) async throws -> WriteOutcome<Media>
    /// The owner's media with this client id.
    func media(owner: Int64, clientMediaId: String) async throws -> Media?
    /// The media with this id, if `viewer` may read it: its uploader, or either person of a
    /// conversation holding a message (not unsent) that carries it.
    func readableMedia(id: Int64, viewer: Int64) async throws -> Media?
    /// The owner's media among `ids`, in any order (ids of others or of nothing are left out).
    func ownedMedia(owner: Int64, ids: [Int64]) async throws -> [Media]
    /// Bytes of media the owner holds.
    func mediaBytes(owner: Int64) async throws -> Int64
    /// Deletes at most `limit` media created before `cutoff` that no message (not unsent)
    /// carries; returns the sha256 of each deleted row that no other media row still names.
    func deleteUnreferencedMedia(before cutoff: Timestamp, limit: Int) async throws -> [String]
    /// Whether any media row names these bytes.
    func isStored(sha256: String) async throws -> Bool
}

/// A media to record, its bytes already durable under `sha256`.
struct NewMedia: Sendable {
    var owner: Int64
    var clientMediaId: String
    var contentType: String
    var size: Int64
    var sha256: String
    var filename: String?
    var createdAt: Timestamp
}
