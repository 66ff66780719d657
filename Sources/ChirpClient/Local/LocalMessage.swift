import ChirpDataCenter
import ChirpModels
import ChirpPersistence
import Foundation

/// One message in the local database, direct or in a group: sent by this user (possibly still pending) or
/// received. Identified by sender and client id, so the pending copy, the server's reply and
/// the copy that comes back on the event stream are one row. Its state is a `DeliveryState`;
/// unsent or taken down, it is a tombstone as `Tombstonable` says.
public struct LocalMessage: StoredRecord, Tombstonable {
    public static let tableName = "messages"

    /// `sender/clientMessageId`, sender lowercased.
    public var id: String
    public var clientMessageId: String
    /// The other party, lowercased, or the group's key (`ConversationKey`): the conversation
    /// this message is in.
    public var peer: String
    public var sender: String
    public var recipient: String
    public var text: String
    /// The server's id, once acknowledged.
    public var serverId: String?
    /// Display order in the conversation: the server id's numeric value once known; pending
    /// messages sort after every acknowledged one, in the order they were written.
    public var sortKey: Int64
    /// When it was written (locally) or created (on the server), RFC 3339.
    public var createdAt: String
    public var state: DeliveryState
    /// Why the server refused it (`failed` only).
    public var failure: String?
    /// The media the server stored with it (empty while pending).
    public var media: [Media]
    /// Its attachments as shown: name, type, size (pending ones before their upload too).
    public var attachments: [LocalAttachment]
    /// The server id of the message of this conversation it answers; while that one is still
    /// pending, its local `id` (the outbox sends the server id once it has one).
    public var replyTo: String?
    /// Reactions, one entry per emoji, users in the order they reacted.
    public var reactions: [MessageReaction]
    /// When the sender last edited it (RFC 3339); nil if never.
    public var editedAt: String?
    /// Unsent by its sender (or taken down): `text` is empty and the reactions are gone.
    public var deleted: Bool
    /// A tombstone the server's operators made (a take-down), not its sender.
    public var removedByOperators: Bool
    /// In a group: how many members other than the sender read it (the server's count, raised
    /// by the `message.read` events of `readers`; never lowered).
    public var readCount: Int
    /// In a group: the members whose `message.read` covered it here.
    public var readers: [String]
    /// A message of an encrypted conversation: its envelope as the server holds it (nil for a
    /// message in the clear, and while pending).
    public var envelope: Envelope?
    /// What this device made of the envelope; nil for a message in the clear. Only `opened`
    /// has text: `text` is then the decrypted local copy (the server holds none), and
    /// otherwise empty, shown as the verification's notice.
    public var verification: MessageVerification?
    /// The attachments' keys from the opened envelope (what `UserSession.download` decrypts with).
    public var mediaKeys: [EncryptedMediaKey]

    /// Pending messages sort after this.
    static let pendingBase: Int64 = 1 << 62

    /// The row id of a message.
    public static func key(sender: String, clientMessageId: String) -> String {
        "\(sender.lowercased())/\(clientMessageId)"
    }

    /// Whether `user` sent it.
    public func isOutgoing(for user: String) -> Bool { sender.lowercased() == user.lowercased() }

    /// The group it is in; nil for a direct message.
    public var group: String? { ConversationKey.groupId(of: peer) }

    /// Where the outbox sends it: the recipient, or the group's key.
    public var destination: String { group == nil ? recipient : peer }

    /// A message the server has, as seen by `viewer`; a sealed one as this device `opened` it
    /// (unopened: could not be verified, and no text).
    init(_ message: Message, viewer: String, opened: OpenedEnvelope?) {
        self.init(message, viewer: viewer)
        guard let sealed = message.envelope else { return }
        envelope = sealed
        let opened = opened ?? .couldNotVerify
        verification = opened.verification
        let plaintext = opened.plaintext
        text = plaintext?.text ?? ""
        replyTo = plaintext?.replyTo
        mediaKeys = plaintext?.media ?? []
        // The server's media are opaque uploads; the names, types and sizes are in the envelope.
        attachments = message.media.map { media in
            guard let key = mediaKeys.first(where: { $0.id == media.id }) else { return LocalAttachment(media) }
            return LocalAttachment(
                name: key.name ?? "media-\(media.id)", contentType: key.contentType, size: Int64(key.byteCount),
                mediaId: media.id)
        }
    }

    /// Whether it is a message of an encrypted conversation.
    public var isEncrypted: Bool { verification != nil }

    /// The text as shown: the text, or for a sealed message that did not open its notice.
    public var shownText: String { verification?.notice ?? text }

    /// A message the server has, as seen by `viewer` (in the clear).
    public init(_ message: Message, viewer: String) {
        let outgoing = message.sender.lowercased() == viewer.lowercased()
        id = Self.key(sender: message.sender, clientMessageId: message.clientMessageId)
        clientMessageId = message.clientMessageId
        peer = message.group.map(ConversationKey.group) ?? (outgoing ? message.recipient : message.sender).lowercased()
        sender = message.sender
        recipient = message.recipient
        text = message.text
        serverId = message.id
        sortKey = Int64(message.id) ?? 0
        createdAt = message.createdAt.rfc3339
        state = outgoing ? (message.readByRecipient ? .read : .delivered) : .received
        failure = nil
        media = message.media
        attachments = message.media.map(LocalAttachment.init)
        replyTo = message.replyTo
        reactions = message.reactions
        editedAt = message.editedAt?.rfc3339
        deleted = message.deleted
        removedByOperators = message.removedByOperators
        readCount = message.readCount
        readers = []
        envelope = nil
        verification = nil
        mediaKeys = []
    }

    /// A message written here and not yet sent.
    init(
        pendingFrom sender: String, to recipient: String, clientMessageId: String, text: String, order: Int64,
        at time: Timestamp,
        attachments: [LocalAttachment] = [],
        replyTo: String? = nil
    ) {
        id = Self.key(sender: sender, clientMessageId: clientMessageId)
        self.clientMessageId = clientMessageId
        peer = recipient.lowercased()
        self.sender = sender
        self.recipient = recipient
        self.text = text
        serverId = nil
        sortKey = Self.pendingBase + order
        createdAt = time.rfc3339
        state = .pending
        failure = nil
        media = []
        self.attachments = attachments
        self.replyTo = replyTo
        reactions = []
        editedAt = nil
        deleted = false
        removedByOperators = false
        readCount = 0
        readers = []
        envelope = nil
        verification = nil
        mediaKeys = []
    }

    /// This row updated with what the server says about it; the state only moves forward.
    ///
    /// The server's copy brings the current text, edit and reactions (a page, a send's reply,
    /// `message.updated`); with `keepingContent` (a `message.created` event, which carries the
    /// message as sent) an acknowledged row keeps its own. An unsent row keeps its (empty)
    /// content: nothing brings it back.
    func merged(with server: LocalMessage, keepingContent: Bool = false) -> LocalMessage {
        var merged = server
        // A sealed copy this device cannot open (sealed by this device, which is never among
        // its own envelope's keys) keeps the content this device wrote or opened.
        if server.verification == .notSealedToThisDevice, verification == .opened || serverId == nil {
            merged.text = text
            merged.replyTo = replyTo
            merged.mediaKeys = mediaKeys
            merged.verification = .opened
            if attachments.count == server.attachments.count {
                merged.attachments = zip(attachments, server.attachments).map { mine, theirs in
                    var shown = mine
                    shown.mediaId = theirs.mediaId ?? mine.mediaId
                    return shown
                }
            }
        }
        merged.state = state.advanced(to: server.state)
        if merged.state == .failed { merged.failure = failure } else { merged.failure = nil }
        // An opened copy replaces one that did not open (its sender's device was unknown then).
        let opensNow = verification != nil && verification != .opened && server.verification == .opened
        if (keepingContent && serverId != nil || deleted) && !opensNow {
            merged.text = text
            merged.reactions = reactions
            merged.editedAt = editedAt
            merged.deleted = deleted
        }
        merged.removedByOperators = server.removedByOperators || removedByOperators
        merged.readers = readers
        merged.readCount = max(readCount, server.readCount)
        if merged.deleted { merged = merged.unsent() }
        return merged
    }

    /// This message as a tombstone (`Tombstonable.tombstone`), its attachments gone with its
    /// media; `byOperators` marks it taken down.
    func unsent(byOperators: Bool = false) -> LocalMessage {
        var copy = tombstone(byOperators: byOperators)
        copy.attachments = []
        copy.mediaKeys = []
        if copy.verification != nil { copy.verification = .opened }
        return copy
    }
}

extension LocalMessage: DataCenterManaged {
    /// A page of a conversation from the server, as rows for `LocalLedger.merge(page:)`: each
    /// moves its stored row's state forward (a pending row the server already stored becomes
    /// `delivered`, a `read` one stays `read`); rows it does not list, such as pending ones, stay.
    public static func records(from response: Page<Message>, for request: ChirpEndpoints.ListMessages) -> [LocalMessage]
    {
        let peer = request.peer.lowercased()
        return response.items.map { message in
            let viewer = message.sender.lowercased() == peer ? message.recipient : message.sender
            return LocalMessage(message, viewer: viewer)
        }
    }
}
