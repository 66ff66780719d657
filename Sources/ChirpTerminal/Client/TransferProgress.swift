/// How far an attachment's upload (or download) has come: shown in the conversation as
/// "photo.png 42 %" until it completes.
public struct TransferProgress: Sendable, Equatable {
    /// Names the transfer (the client's media id, or the media id of a download); progress of
    /// the same id replaces the last.
    public var id: String
    /// The file's name; empty until the app finds it among the message's attachments.
    public var filename: String
    public var sent: Int64
    public var total: Int64
    public var isUpload: Bool
    /// The outgoing message the file belongs to, and its place among the attachments.
    public var messageId: String?
    public var index: Int
    /// Why it stopped, when it did (the outbox retries an upload).
    public var failure: String?

    public init(
        id: String, filename: String, sent: Int64, total: Int64, isUpload: Bool = true, messageId: String? = nil,
        index: Int = 0,
        failure: String? = nil
    ) {
        self.id = id
        self.filename = filename
        self.sent = sent
        self.total = total
        self.isUpload = isUpload
        self.messageId = messageId
        self.index = index
        self.failure = failure
    }

    /// Whole percent done (100 when the total is unknown or zero and the bytes are in).
    public var percent: Int { total > 0 ? Int(min(sent, total) * 100 / total) : 100 }
    /// Done, or stopped: no longer shown as under way.
    public var isFinished: Bool { sent >= total || failure != nil }
}
