import ChirpModels
import Foundation

extension LocalLedger {
    /// Remembers that an attachment finished uploading (its media id), so a restart does not
    /// send it again, and shows it on the pending message.
    /// One write among the ledger's others (`write`): the message row is read and saved again,
    /// and a reaction queued on it at the same moment must not be lost.
    func recordUpload(_ attachment: PendingAttachment, mediaId: String) async throws {
        try await write { [database] in
            var uploaded = attachment
            uploaded.mediaId = mediaId
            try await database.attachments.save([uploaded])
            guard var message = try await database.messages.fetch(id: attachment.messageId),
                attachment.position < message.attachments.count, message.state == .pending
            else { return ((), []) }
            message.attachments[attachment.position].mediaId = mediaId
            try await database.messages.save([message])
            return ((), [.messages(peer: message.peer)])
        }
    }

    /// Drops a sent message's pending attachment rows.
    func forgetAttachments(of messageId: String) async throws {
        try await write { [database] in
            try await database.attachments.delete(matching: PendingAttachment.of(messageId))
            return ((), [])
        }
    }
}
