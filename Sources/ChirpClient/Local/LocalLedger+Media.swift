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

    /// Drops a sent message's pending attachment rows (and their encrypted copies).
    func forgetAttachments(of messageId: String) async throws {
        try await write { [database] in
            let rows = try await database.attachments.fetch(PendingAttachment.of(messageId))
            for path in rows.compactMap(\.sealedPath) { try? FileManager.default.removeItem(atPath: path) }
            try await database.attachments.delete(matching: PendingAttachment.of(messageId))
            return ((), [])
        }
    }

    /// Remembers an attachment's encrypted copy and its key before it is uploaded, so a
    /// restart resumes the upload of the same bytes.
    func recordSealed(_ attachment: PendingAttachment) async throws {
        try await write { [database] in
            try await database.attachments.save([attachment])
            return ((), [])
        }
    }

    /// The conversation turned out to be encrypted after a message's attachments were
    /// uploaded in the clear: they are uploaded again, encrypted, under new client ids.
    func resetUploads(of messageId: String) async throws {
        try await write { [database] in
            let rows = try await database.attachments.fetch(PendingAttachment.of(messageId))
            guard rows.contains(where: { $0.mediaId != nil && $0.sealedKey == nil }) else { return ((), []) }
            try await database.attachments.save(
                rows.map { row in
                    var row = row
                    if row.sealedKey == nil {
                        row.mediaId = nil
                        row.clientMediaId = UUID().uuidString
                    }
                    return row
                })
            return ((), [])
        }
    }
}
