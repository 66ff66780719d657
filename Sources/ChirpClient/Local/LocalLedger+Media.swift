import ChirpModels
import Foundation

extension LocalLedger {
    /// Remembers that an attachment finished uploading (its media id), so a restart does not
    /// send it again, and shows it on the pending message.
    func recordUpload(_ attachment: PendingAttachment, mediaId: String) async throws {
        var uploaded = attachment
        uploaded.mediaId = mediaId
        try await database.attachments.save([uploaded])
        guard var message = try await database.messages.fetch(id: attachment.messageId),
              attachment.position < message.attachments.count, message.state == .pending
        else { return }
        message.attachments[attachment.position].mediaId = mediaId
        try await database.messages.save([message])
        changes.publish([.messages(peer: message.peer)])
    }

    /// Drops a sent message's pending attachment rows.
    func forgetAttachments(of messageId: String) async throws {
        try await database.attachments.delete(matching: PendingAttachment.of(messageId))
    }
}
