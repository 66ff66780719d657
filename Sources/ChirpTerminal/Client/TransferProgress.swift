/// How far an attachment's upload (or download) has come: shown in the conversation as
/// "photo.png 42 %" until it completes.
public struct TransferProgress: Sendable, Equatable {
    /// Names the transfer (the client's media id); progress of the same id replaces the last.
    public var id: String
    public var filename: String
    public var sent: Int64
    public var total: Int64
    public var isUpload: Bool

    public init(id: String, filename: String, sent: Int64, total: Int64, isUpload: Bool = true) {
        self.id = id
        self.filename = filename
        self.sent = sent
        self.total = total
        self.isUpload = isUpload
    }

    /// Whole percent done (100 when the total is unknown or zero and the bytes are in).
    public var percent: Int { total > 0 ? Int(min(sent, total) * 100 / total) : 100 }
    public var isFinished: Bool { sent >= total }
}
