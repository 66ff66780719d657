import ChirpEncryption
import ChirpModels
import ChirpNetworking
import Foundation
import Logging

/// Encrypted conversations (issue 55, API.md part 4). Each installation is a device whose
/// private keys stay in the user's directory (`device-keys.json`, mode 0600); it is registered
/// at login and its encryption key rotated every 7 days. In an encrypted conversation the
/// outbox seals each message (and encrypts each attachment) to every current device of every
/// member at send time, and what arrives is opened before it is stored: the local database
/// holds the decrypted copies, which `messages`, `searchLocally` and `download` read, and a
/// message that does not open shows "could not be verified", never text.
extension UserSession {
    /// Turns encryption on for the direct conversation with `peer`, for good. Throws
    /// `EncryptionError.noDevices` when one of you has no device yet.
    public func turnOnEncryption(peer: String) async throws {
        try await turnOnEncryption(key: peer)
    }

    /// Turns encryption on for group `id` (admins only), for good. Throws
    /// `EncryptionError.noDevices` when a member has no device yet.
    public func turnOnEncryption(group id: String) async throws {
        try await turnOnEncryption(key: ConversationKey.group(id))
    }

    private func turnOnEncryption(key: String) async throws {
        try await crypto.device.registered()
        do {
            _ = try await api.send(ChirpEndpoints.TurnOnEncryption(with: key))
        } catch {
            if case .server(let status, let code, _, let member) = error, status == 409, code == APIErrorCode.noDevices
            {
                throw EncryptionError.noDevices(member ?? key)
            }
            throw error
        }
        try await ledger.markEncrypted(key)
    }

    /// Whether the conversation `key` (a peer or a group's key) is encrypted, as known here.
    public func isEncrypted(_ key: String) async throws -> Bool {
        try await ledger.isEncrypted(key)
    }

    /// `username`'s current devices (asked of the server), those whose key signature verifies.
    public func devices(of username: String) async throws -> [Device] {
        try await crypto.directory.devices(of: username, refresh: true)
    }

    /// This installation's device id (its keys made, not necessarily registered yet).
    public func thisDeviceId() async throws -> String {
        try await crypto.device.currentKeys().deviceId
    }

    /// The safety number of your conversation with `peer`: 60 digits from both users'
    /// identity keys, the same on both sides. Compare it with theirs, in person or on a call:
    /// when they match, no device was slipped into the conversation.
    public func safetyNumber(with peer: String) async throws -> SafetyNumber {
        try await crypto.device.registered()
        let other = try await profile(peer).username
        let mine = try await crypto.directory.devices(of: username, refresh: true)
        let theirs = try await crypto.directory.devices(of: other, refresh: true)
        return try SafetyNumber((username, mine.map(\.identityKey)), (other, theirs.map(\.identityKey)))
    }

    /// The stored messages of encrypted conversations (with `peer` only, when given) whose
    /// decrypted text holds every word of `query`, newest first: the server cannot search
    /// them, this device can.
    public func searchLocally(_ query: String, peer: String? = nil, limit: Int = 50) async throws -> [LocalMessage] {
        try await ledger.searchDecrypted(query, peer: peer, limit: limit)
    }

    /// `event` with the text of an encrypted message (created or updated) as this device's
    /// stored copy shows it: the decrypted text, or why it did not open. Other events as given.
    public func withDecryptedText(_ event: Event) async -> Event {
        var event = event
        switch event.payload {
        case .messageCreated(var message) where message.envelope != nil:
            message.text = await storedText(of: message)
            event.payload = .messageCreated(message)
        case .messageUpdated(var message) where message.envelope != nil:
            message.text = await storedText(of: message)
            event.payload = .messageUpdated(message)
        default: break
        }
        return event
    }

    private func storedText(of message: Message) async -> String {
        let id = LocalMessage.key(sender: message.sender, clientMessageId: message.clientMessageId)
        guard let row = try? await database.messages.fetch(id: id) else { return ConversationSummary.sealedText }
        return "🔒 " + (row.verification?.notice.map { "(\($0))" } ?? row.text)
    }

    /// Registers this installation's device (at login, with `force`, for the new session;
    /// otherwise only when the server was not given the current key yet). A failure is
    /// logged: the device is registered again before the next seal.
    func registerDevice(force: Bool = true) async {
        do {
            try await crypto.device.registered(force: force)
        } catch {
            Logger(label: "chirp.device").warning("cannot register this device", metadata: ["error": "\(error)"])
        }
    }

    /// Keeps the device registered (no network call once it is): what commands that reach the
    /// server and the app's sync start with.
    public func keepDeviceRegistered() async {
        await registerDevice(force: false)
    }
}
