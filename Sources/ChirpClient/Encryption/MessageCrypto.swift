import ChirpEncryption
import ChirpModels
import ChirpNetworking
import Foundation
import Logging

/// Why a message of an encrypted conversation could not be sealed.
public enum EncryptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A member has no device whose keys verify: nothing can be sealed to them.
    case noDevices(String)
    /// The members' devices kept changing while the message was sealed again and again.
    case devicesKeptChanging
    /// The group is not stored here and could not be read.
    case unknownGroup(String)

    public var description: String {
        switch self {
        case .noDevices(let user):
            "\(user) has no device that can read encrypted messages: they must sign in with a current chirp first"
        case .devicesKeptChanging:
            "the members' devices kept changing while the message was sealed: try again (chirp retry)"
        case .unknownGroup(let id): "group \(id) is not known here: run chirp group show \(id) first"
        }
    }
}

/// One user's end of encrypted conversations: this installation's device, the directory of
/// the other members' devices, and the two things done with them — opening an envelope the
/// server brought (`open`) and sealing a message to every current device of every member
/// (`seal`). `LocalLedger` opens what it stores; the outbox seals what it sends.
final class MessageCrypto: Sendable {
    let username: String
    let device: ThisDevice
    let directory: DeviceDirectory
    let database: ClientDatabase
    let api: ChirpAPIClient
    private let logger = Logger(label: "chirp.encryption")

    init(
        username: String, device: ThisDevice, directory: DeviceDirectory, database: ClientDatabase, api: ChirpAPIClient
    ) {
        self.username = username
        self.device = device
        self.directory = directory
        self.database = database
        self.api = api
    }

    // MARK: conversation ids

    /// The id an envelope of the conversation `key` (a peer or a group's key) binds to.
    func conversationId(of key: String) async throws -> ConversationID {
        if let group = ConversationKey.groupId(of: key) { return .group(group) }
        return .direct(try await directory.userId(of: username), try await directory.userId(of: key))
    }

    /// The id of the conversation `message` is in.
    func conversationId(of message: Message) async throws -> ConversationID {
        if let group = message.group { return .group(group) }
        return .direct(
            try await directory.userId(of: message.sender), try await directory.userId(of: message.recipient))
    }

    // MARK: opening

    /// What this device makes of `message`'s envelope; nil when it has none (in the clear, or
    /// a tombstone). The sender device is looked up among the sender's devices only.
    func open(_ message: Message) async -> OpenedEnvelope? {
        guard let envelope = message.envelope, !message.deleted else { return nil }
        switch await outcome(
            of: envelope, conversation: try? await conversationId(of: message), message: message.id,
            clientMessageId: message.clientMessageId, sender: message.sender)
        {
        case .opened(let plaintext, _, _): return .opened(plaintext)
        case .notSealedToThisDevice: return .notSealedToThisDevice
        case .unverifiable: return .couldNotVerify
        }
    }

    /// What a report of `message` (received here) discloses so that the server can verify it:
    /// the content key (base64url) and the exact plaintext that was sealed; nil when this
    /// device did not open it.
    func reportEvidence(of message: LocalMessage) async -> (contentKey: String, plaintext: String)? {
        guard let envelope = message.envelope, let serverId = message.serverId, !message.deleted else { return nil }
        let conversation = try? await conversationId(of: message.peer)
        guard
            case .opened(_, let plaintext, let contentKey) = await outcome(
                of: envelope, conversation: conversation, message: serverId, clientMessageId: message.clientMessageId,
                sender: message.sender),
            let text = String(data: plaintext, encoding: .utf8)
        else { return nil }
        return (Base64URL.encode(contentKey), text)
    }

    /// Opens `envelope` (message `message`, sent as `clientMessageId` by `sender` in
    /// `conversation`) with this device's keys; an unknown conversation or sender device, or
    /// unreadable keys, is unverifiable.
    private func outcome(
        of envelope: Envelope, conversation: ConversationID?, message: String, clientMessageId: String, sender: String
    ) async -> EnvelopeOutcome {
        let keys: DeviceKeys
        do { keys = try await device.currentKeys() } catch {
            logger.error("cannot read this device's keys", metadata: ["error": "\(error)"])
            return .unverifiable(.keyNotUnwrapped)
        }
        // This device's own envelopes are sealed to the others only.
        if envelope.senderDevice == keys.deviceId, sender.lowercased() == username.lowercased() {
            return .notSealedToThisDevice
        }
        guard let conversation, let senderKey = await directory.identityKey(of: envelope.senderDevice, user: sender)
        else {
            logger.warning("sender device unknown", metadata: ["message": "\(message)"])
            return .unverifiable(.badSignature)
        }
        let outcome = EnvelopeOpener(keys: keys).open(
            envelope, conversationId: conversation.rawValue, clientMessageId: clientMessageId,
            senderIdentityKey: senderKey)
        if case .unverifiable(let reason) = outcome {
            logger.warning(
                "envelope could not be verified", metadata: ["message": "\(message)", "reason": "\(reason)"])
        }
        return outcome
    }

    // MARK: sealing

    /// The usernames of the conversation `key`'s members, this user included.
    func members(of key: String) async throws -> [String] {
        guard let id = ConversationKey.groupId(of: key) else { return [username, key] }
        if let group = try await database.groups.fetch(id: id) { return group.members.map(\.user.username) }
        guard let group = try? await api.send(ChirpEndpoints.GetGroup(id)) else {
            throw EncryptionError.unknownGroup(id)
        }
        return group.members.map(\.user.username)
    }

    /// Seals `plaintext` as message `clientMessageId` of the conversation `key`, to every
    /// current device of every member (this device left out): `devices` when a
    /// `devices_changed` answer named them, else the directory's.
    func seal(
        _ plaintext: EncryptedPlaintext, in key: String, clientMessageId: String, devices: [String: [Device]]? = nil
    ) async throws -> SealedEnvelope {
        let keys = try await device.registered()
        var recipients: [Device] = []
        if let devices {
            for (user, list) in try await directory.learn(devices) {
                guard !list.isEmpty else { throw EncryptionError.noDevices(user) }
                recipients += list
            }
        } else {
            for member in try await members(of: key) {
                let list = try await directory.devices(of: member)
                guard !list.isEmpty || member.lowercased() == username.lowercased() else {
                    throw EncryptionError.noDevices(member)
                }
                recipients += list
            }
        }
        return try EnvelopeSealer(keys: keys).seal(
            plaintext, conversationId: try await conversationId(of: key).rawValue, clientMessageId: clientMessageId,
            recipients: recipients)
    }
}
