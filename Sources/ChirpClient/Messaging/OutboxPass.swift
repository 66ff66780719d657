import ChirpModels
import ChirpNetworking
import Foundation
import Logging

/// One drain pass: every pending message tried once (the network layer retrying each send),
/// queue by queue.
struct OutboxPass: Sendable {
    let ledger: LocalLedger
    let api: ChirpAPIClient
    let retries: RetryPolicy
    let logger: Logger
    /// Uploads a message's attachments before it is sent (nil: messages have none).
    var uploader: MediaUploader?

    func run() async throws -> OutboxReport {
        let pending = try await ledger.database.pendingMessages().map { OutboxItem.message($0) }
        let actions = try await ledger.database.pendingActions().map { OutboxItem.action($0) }
        var queues: [String: [OutboxItem]] = [:]
        var order: [String] = []
        // Pins order conversations among themselves (most recently pinned first), so they go
        // one at a time in the order they were made, after the conversations' own queues:
        // per-conversation queues run at once, and two offline pins reached the server swapped.
        var pins: [PendingAction] = []
        for item in (pending + actions).sorted(by: { $0.order < $1.order }) {
            if case .action(let action) = item, action.kind == .pin || action.kind == .unpin {
                pins.append(action)
                continue
            }
            let peer =
                switch item {
                case .message(let message): message.peer
                case .action(let action): action.peer
                }
            if queues[peer] == nil { order.append(peer) }
            queues[peer, default: []].append(item)
        }
        var (report, stopped) = try await withThrowingTaskGroup(of: (String, OutboxReport).self) { group in
            for peer in order {
                let queue = queues[peer]!
                group.addTask { (peer, try await self.drain(queue)) }
            }
            var total = OutboxReport()
            var stopped: Set<String> = []
            for try await (peer, report) in group {
                total.sent += report.sent
                total.failed += report.failed
                total.stillPending += report.stillPending
                total.blockedBy = total.blockedBy ?? report.blockedBy
                total.refusedActions += report.refusedActions
                if report.stillPending > 0 { stopped.insert(peer) }
            }
            return (total, stopped)
        }
        try await deliverPins(pins, after: stopped, into: &report)
        if let blocked = report.blockedBy, report.stillPending > 0 {
            // Offline is the normal case of an offline-first client (the rows show as pending);
            // a server that answers and stays busy is worth a warning.
            let level: Logger.Level = blocked.status == nil ? .debug : .warning
            logger.log(
                level: level, "outbox pass left messages pending",
                metadata: [
                    "pending": "\(report.stillPending)", "reason": "\(blocked.kind)",
                ])
        }
        return report
    }

    /// Sends the pins and unpins in the order they were made, each after its conversation's
    /// queue; the first that cannot go (its conversation's queue stopped, or it is blocked
    /// itself) holds it and every later one back.
    private func deliverPins(_ pins: [PendingAction], after stopped: Set<String>, into report: inout OutboxReport)
        async throws
    {
        let actions = ActionDelivery(ledger: ledger, api: api, retries: retries, logger: logger)
        for (index, pin) in pins.enumerated() {
            guard !stopped.contains(pin.peer) else {
                report.stillPending += pins.count - index
                return
            }
            switch try await actions.deliver(pin) {
            case .done, .waiting: continue
            case .refused(let reason): report.refusedActions.append(reason)
            case .blocked(let error):
                report.stillPending += pins.count - index
                report.blockedBy = report.blockedBy ?? error
                return
            }
        }
    }

    /// Sends one conversation's queue in order; stops at the first message that cannot get
    /// through, leaving it and those after it pending.
    private func drain(_ queue: [OutboxItem]) async throws -> OutboxReport {
        var report = OutboxReport()
        let actions = ActionDelivery(ledger: ledger, api: api, retries: retries, logger: logger)
        for (index, item) in queue.enumerated() {
            guard case .message(let message) = item else {
                guard case .action(let action) = item else { continue }
                switch try await actions.deliver(action) {
                case .done, .waiting: continue
                case .refused(let reason): report.refusedActions.append(reason)
                case .blocked(let error):
                    report.stillPending = queue.count - index
                    report.blockedBy = error
                    return report
                }
                continue
            }
            switch try await deliver(message) {
            case .sent(let stored): report.sent.append(stored)
            case .failed(let stored): report.failed.append(stored)
            case .blocked(let error):
                report.stillPending = queue.count - index
                report.blockedBy = error
                return report
            }
        }
        return report
    }

    private enum Outcome {
        case sent(LocalMessage)
        case failed(LocalMessage)
        case blocked(NetworkError)
    }

    private func deliver(_ message: LocalMessage) async throws -> Outcome {
        let reply: Message
        var opened: OpenedEnvelope?
        do {
            (reply, opened) = try await send(message)
        } catch {
            if let error = error as? NetworkError, error == .cancelled || error == .offline || error.isTransient {
                return .blocked(error)
            }
            let reason: String
            if case .server(_, _, let text, _) = error as? NetworkError {
                reason = text
            } else {
                reason = String(describing: error)
            }
            // The reason is the server's (or the decoder's), never the message's text.
            logger.error(
                "outbox send failed",
                metadata: [
                    "reason": "\((error as? NetworkError)?.kind ?? String(describing: type(of: error)))",
                    "clientMessageId": "\(message.clientMessageId)",
                ])
            try await ledger.markFailed(message.id, reason: reason)
            var failed = message
            failed.state = .failed
            failed.failure = reason
            return .failed(failed)
        }
        try await ledger.record(reply, state: .sent, opened: opened)
        if !message.attachments.isEmpty { try await ledger.forgetAttachments(of: message.id) }
        var stored = LocalMessage(reply, viewer: ledger.username, opened: opened)
        stored.state = .sent
        return .sent(stored)
    }

    /// Sends `message`: in the clear, or sealed when its conversation is encrypted (learnt
    /// from an `encryption_required` refusal too), sealed again to the devices a
    /// `devices_changed` answer names. Returns the server's message and, when sealed, what
    /// was sealed.
    private func send(_ message: LocalMessage) async throws -> (Message, OpenedEnvelope?) {
        let replyTo = try await serverReplyTo(message)
        var encrypted = try await ledger.isEncrypted(message.peer)
        var devices: [String: [Device]]?
        var reregistered = false
        for _ in 0..<Self.sealAttempts {
            var endpoint = ChirpEndpoints.SendMessage(
                to: message.destination, clientMessageId: message.clientMessageId, text: message.text, replyTo: replyTo)
            endpoint.retryPolicy = retries
            var sealed: EncryptedPlaintext?
            if encrypted, let crypto = ledger.crypto {
                let uploads = try await uploadSealedAttachments(of: message, crypto: crypto)
                let plaintext = EncryptedPlaintext(text: message.text, replyTo: replyTo, media: uploads)
                endpoint.envelope = try await crypto.seal(
                    plaintext, in: message.peer, clientMessageId: message.clientMessageId, devices: devices
                ).envelope
                endpoint.mediaIds = uploads.map(\.id)
                sealed = plaintext
            } else {
                endpoint.mediaIds = try await uploadAttachments(of: message)
            }
            do {
                switch try await api.sendReadingConflict(endpoint) {
                case .reply(let reply): return (reply, sealed.map(OpenedEnvelope.opened))
                case .conflict(let body) where body.error.code == APIErrorCode.devicesChanged && sealed != nil:
                    devices = body.error.devices
                    continue
                case .conflict(let body):
                    throw NetworkError.server(
                        status: 409, code: body.error.code, message: body.error.message, field: body.error.field)
                }
            } catch let error as NetworkError {
                switch error {
                case .server(422, APIErrorCode.encryptionRequired, _, _) where !encrypted && ledger.crypto != nil:
                    // Turned on elsewhere: nothing was stored; seal it and send it again.
                    try await ledger.markEncrypted(message.peer)
                    try await ledger.resetUploads(of: message.id)
                    encrypted = true
                case .server(422, _, _, let field) where field == "envelope.senderDevice" && !reregistered:
                    // The server no longer has this device: register it again and seal again.
                    _ = try await ledger.crypto?.device.registered(force: true)
                    reregistered = true
                default:
                    throw error
                }
            }
        }
        throw EncryptionError.devicesKeptChanging
    }

    /// How many times one message is sealed before the outbox gives up on it.
    static let sealAttempts = 4

    /// Uploads the message's attachments not uploaded yet, in order, remembering each media id
    /// as it comes (a restart resumes after the last); returns every media id in order.
    private func uploadAttachments(of message: LocalMessage) async throws(NetworkError) -> [String] {
        // A message is queued with its attachments in one write: one without any has no rows.
        guard !message.attachments.isEmpty else { return [] }
        let attachments: [PendingAttachment]
        do { attachments = try await ledger.database.attachments.fetch(PendingAttachment.of(message.id)) } catch {
            throw .transport("cannot read the message's attachments: \(error)")
        }
        guard !attachments.isEmpty else { return [] }
        guard let uploader else { throw .transport("this client cannot upload attachments") }
        var ids: [String] = []
        for attachment in attachments {
            if let id = attachment.mediaId {
                ids.append(id)
                continue
            }
            guard FileManager.default.isReadableFile(atPath: attachment.path) else {
                throw .server(
                    status: 422, code: "attachment_missing",
                    message: "The file \(attachment.path) is gone or unreadable.", field: nil)
            }
            let media = try await uploader.upload(
                MediaUploader.Upload(
                    file: URL(fileURLWithPath: attachment.path), clientMediaId: attachment.clientMediaId,
                    contentType: attachment.contentType, filename: attachment.filename, size: attachment.size),
                as: .upload(
                    localMessageId: message.id, index: attachment.position, clientMediaId: attachment.clientMediaId))
            do { try await ledger.recordUpload(attachment, mediaId: media.id) } catch {
                throw .transport("cannot record an upload: \(error)")
            }
            ids.append(media.id)
        }
        return ids
    }

    /// The server id a message answers: its `replyTo`, or, when that names a message that was
    /// pending when this one was written, that message's server id now (nil if it never got one).
    private func serverReplyTo(_ message: LocalMessage) async throws -> String? {
        guard let replyTo = message.replyTo, replyTo.contains("/") else { return message.replyTo }
        return try await ledger.database.messages.fetch(id: replyTo)?.serverId
    }
}
