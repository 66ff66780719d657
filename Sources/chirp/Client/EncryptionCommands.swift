import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp encrypt USER` (or `chirp encrypt --group ID`): turns a conversation's encryption on,
/// for good. From then on `send` seals each message to the members' devices, and `messages`,
/// `search` and `media get` read this device's decrypted copies.
struct EncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a conversation from now on: only its members' devices can read it (it cannot be undone).")

    @Argument(help: "The other person (or --group ID).") var person: String?
    @OptionGroup var group: GroupOption
    @OptionGroup var client: ClientOptions

    func validate() throws {
        guard (person == nil) != (group.id == nil) else {
            throw ValidationError("name one conversation: a USER, or --group ID")
        }
    }

    func run() async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in
            if let id = group.id {
                try await session.turnOnEncryption(group: id)
            } else if let person {
                try await session.turnOnEncryption(peer: person)
            }
        }
        let name = group.id.map { "group \($0)" } ?? person ?? ""
        printLine(
            "🔒 \(name) is encrypted: from now on only its members' devices can read it"
                + (group.id == nil ? " (compare chirp safety-number \(person ?? "") with theirs)" : ""))
    }
}

/// `chirp devices [USER]`: the devices that read your (or USER's) encrypted conversations.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "The devices that can read your (or someone's) encrypted conversations.")

    @Argument(help: "Whose devices (default: yours).") var username: String?
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (session, (devices, mine)) = try await ClientRuntime(client).withConnectedSession { session in
            (try await session.devices(of: username ?? session.username), try await session.thisDeviceId())
        }
        let owner = username ?? session.username
        try output.emit(devices) {
            devices.isEmpty
                ? ["\(owner) has no device yet: they cannot be in an encrypted conversation until they log in again"]
                : devices.map { device in
                    "\(device.id)  \(device.name)  added \(device.createdAt.rfc3339)"
                        + (device.id == mine ? "  (this device)" : "")
                }
        }
    }
}

/// `chirp safety-number USER`: the 60 digits you and USER compare to know that no device was
/// slipped into your encrypted conversation.
struct SafetyNumberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "safety-number",
        abstract: "The number you and someone compare to check your encrypted conversation (the same on both sides).")

    @Argument(help: "The other person.") var username: String
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    /// The JSON form.
    struct Shown: Encodable {
        var user: String
        var safetyNumber: String
    }

    func run() async throws {
        let (_, number) = try await ClientRuntime(client).withConnectedSession { session in
            try await session.safetyNumber(with: username)
        }
        try output.emit(Shown(user: username, safetyNumber: number.formatted)) {
            [
                "safety number with \(username):", number.formatted,
                "compare it with \(username)'s (chirp safety-number on their side), in person or on a call:",
                "the same digits mean no one else's device reads your conversation; it changes when a device is added or removed",
            ]
        }
    }
}
