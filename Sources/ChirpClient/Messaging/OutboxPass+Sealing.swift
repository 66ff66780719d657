import ChirpEncryption
import ChirpModels
import ChirpNetworking
import Foundation

extension OutboxPass {
    /// Encrypts and uploads the message's attachments not uploaded yet, in order: each file is
    /// encrypted once (`AttachmentCipher`, a fresh key per file) into `outbox-sealed/` beside
    /// the device keys, its key remembered before the upload so a restart resumes the same
    /// bytes, and uploaded as `application/octet-stream` without its name. Returns each
    /// attachment's key entry (with its media id) for the envelope, in order.
    func uploadSealedAttachments(of message: LocalMessage, crypto: MessageCrypto) async throws -> [EncryptedMediaKey] {
        guard !message.attachments.isEmpty else { return [] }
        let attachments = try await ledger.database.attachments.fetch(PendingAttachment.of(message.id))
        guard !attachments.isEmpty else { return [] }
        guard let uploader else { throw NetworkError.transport("this client cannot upload attachments") }
        let folder = crypto.device.file.directory.appendingPathComponent("outbox-sealed")
        var keys: [EncryptedMediaKey] = []
        for original in attachments {
            var attachment = original
            if let id = attachment.mediaId, var key = attachment.sealedKey {
                key.id = id
                keys.append(key)
                continue
            }
            if attachment.sealedKey == nil || !FileManager.default.fileExists(atPath: attachment.sealedPath ?? "") {
                guard let file = FileManager.default.contents(atPath: attachment.path) else {
                    throw NetworkError.server(
                        status: 422, code: "attachment_missing",
                        message: "The file \(attachment.path) is gone or unreadable.", field: nil)
                }
                let encrypted = try AttachmentCipher.encrypt(file)
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                // New bytes, new client id: an upload begun with other bytes is not resumed.
                attachment.clientMediaId = UUID().uuidString
                let path = folder.appendingPathComponent(attachment.clientMediaId).path
                guard FileManager.default.createFile(atPath: path, contents: encrypted.uploaded) else {
                    throw NetworkError.transport("cannot write the encrypted copy of \(attachment.filename)")
                }
                attachment.sealedPath = path
                attachment.sealedKey = encrypted.mediaKey(
                    id: "", contentType: attachment.contentType, name: attachment.filename)
                try await ledger.recordSealed(attachment)
            }
            guard let path = attachment.sealedPath, var key = attachment.sealedKey else { continue }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            let media = try await uploader.upload(
                MediaUploader.Upload(
                    file: URL(fileURLWithPath: path), clientMediaId: attachment.clientMediaId,
                    contentType: "application/octet-stream", filename: nil, size: size),
                as: .upload(
                    localMessageId: message.id, index: attachment.position, clientMediaId: attachment.clientMediaId))
            try await ledger.recordUpload(attachment, mediaId: media.id)
            key.id = media.id
            keys.append(key)
        }
        return keys
    }
}
