import ChirpEncryption
import ChirpModels
import ChirpModules
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpClient

/// Encrypted conversations (issue 55) through the client kit against a real `chirp serve`:
/// each user's kit registers its device at sign-up, seals at send time, opens what arrives and
/// keeps decrypted copies that only it holds; the server's files never hold the text.
@Suite("Encrypted conversations in the kit", .serialized)
struct EncryptedConversationClientTests {
    /// The names of the files under `directory` that contain `needle`.
    static func files(containing needle: String, under directory: URL) throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            if try Data(contentsOf: url).range(of: Data(needle.utf8)) != nil { found.append(url.lastPathComponent) }
        }
        return found
    }

    @Test func twoKitsExchangeEncryptedDirectMessagesThatOnlyTheirDevicesRead() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()

        // Each sign-up registered the installation's device; its keys stay in a 0600 file.
        let keyFile = alice.context.directory.appendingPathComponent(DeviceKeyFile.fileName)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try await alice.devices(of: "alice").map(\.id) == [try await alice.thisDeviceId()])
        #expect(try await alice.devices(of: "bob").map(\.id) == [try await bob.thisDeviceId()])

        _ = try await alice.send("in the clear, before the switch", to: "bob")
        try await alice.turnOnEncryption(peer: "bob")
        #expect(try await alice.isEncrypted("bob"))
        let secret = "meet at the old mill at nine \(UUID().uuidString)"
        let (sent, report) = try await alice.send(secret, to: "bob")
        #expect(report.sent.count == 1 && sent.state == .sent)
        #expect(sent.text == secret && sent.verification == .opened && sent.envelope != nil)

        // bob learns of the switch from his stream and opens the message.
        _ = try await bob.synchronize()
        #expect(try await bob.isEncrypted("alice"))
        var received = try await bob.messages(with: "alice", limit: 10, refresh: true).items
        #expect(received.map(\.text) == ["in the clear, before the switch", secret])
        #expect(received.last?.verification == .opened && received.first?.verification == nil)
        let row = try #require(try await bob.conversations(refresh: true, includingFollowers: false).first)
        #expect(row.encrypted && row.lastText == secret, "the list shows the decrypted copy")

        // bob replies (his kit learnt of the switch: it seals at once), and edits it.
        let answer = "the mill it is \(UUID().uuidString)"
        let (reply, _) = try await bob.send(answer, to: "alice", replyTo: received.last?.id)
        #expect(reply.state == .sent && reply.replyTo == received.last?.serverId)
        try await bob.edit(reply.id, with: "alice", text: answer + " (edited)")
        #expect(try await bob.drainOutbox().refusedActions.isEmpty)
        _ = try await alice.synchronize()
        received = try await alice.messages(with: "bob", limit: 10, refresh: true).items
        #expect(received.last?.text == answer + " (edited)" && received.last?.verification == .opened)
        #expect(received.last?.replyTo == sent.serverId, "the reply link travelled inside the envelope")
        #expect(received[1].text == secret, "alice's own message keeps her copy")

        // Both sides compute the same safety number.
        let number = try await alice.safetyNumber(with: "bob")
        #expect(number == (try await bob.safetyNumber(with: "alice")) && number.digits.count == 60)

        // The decrypted copies are local: searchable here, and nowhere in the server's files.
        #expect(try await bob.searchLocally("old mill").map(\.text) == [secret])
        #expect(try await alice.searchLocally("MILL", peer: "bob").count == 2)
        let onServer = try await bob.api.send(ChirpEndpoints.ListMessages(with: "alice", limit: 10)).items
        #expect(onServer.suffix(2).allSatisfy { $0.text.isEmpty && $0.envelope != nil })
        #expect(try await bob.searchMessages("mill").items.isEmpty, "the server cannot search envelopes")
        #expect(try Self.files(containing: secret, under: server.dataDirectory).isEmpty)
        #expect(try Self.files(containing: answer, under: server.dataDirectory).isEmpty)
        #expect(!(try Self.files(containing: secret, under: homes["bob"]!.directory).isEmpty))

        // bob reports alice's message: his kit discloses its content key and plaintext, the
        // server verifies them against the envelope it holds, and only now keeps the text.
        _ = try await bob.report("alice", messageId: try #require(sent.serverId), reason: .spam)
        #expect(!(try Self.files(containing: secret, under: server.dataDirectory).isEmpty), "the report holds it")
    }

    @Test func aGroupsMembersExchangeEncryptedMessages() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        let carol = try homes["carol"]!.session()
        let group = try await alice.createGroup("Plotters", members: ["bob", "carol"])
        let key = ConversationKey.group(group.id)
        try await alice.turnOnEncryption(group: group.id)
        let secret = "the cake is in the fridge \(UUID().uuidString)"
        #expect(try await alice.send(secret, to: key).message.state == .sent)
        for member in [bob, carol] {
            _ = try await member.synchronize()
            #expect(try await member.isEncrypted(key))
            let messages = try await member.messages(with: key, limit: 10, refresh: true).items
            #expect(messages.map(\.text) == [secret] && messages.first?.verification == .opened)
        }
        let answer = "which fridge \(UUID().uuidString)"
        #expect(try await carol.send(answer, to: key).message.state == .sent)
        for member in [alice, bob] {
            _ = try await member.synchronize()
            #expect(
                try await member.messages(with: key, limit: 10, refresh: false).items.map(\.text) == [secret, answer])
        }
        #expect(try Self.files(containing: secret, under: server.dataDirectory).isEmpty)
        #expect(try Self.files(containing: answer, under: server.dataDirectory).isEmpty)
    }

    @Test func aDeviceAddedSinceTheLastSealIsSealedToAgainAndTheMessageSentOnce() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        try await alice.turnOnEncryption(peer: "bob")
        #expect(try await alice.send("first", to: "bob").message.state == .sent)

        // bob signs in on a second installation: alice's kit still knows only his first device.
        let laptop = ClientHome(server: server.baseURL)
        let login = try await laptop.chirp("login", "bob", input: "password-bob\n")
        #expect(login.status == 0, "\(login.output)")
        #expect(try await alice.crypto.directory.devices(of: "bob").count == 1, "the list alice sealed to")

        let (sent, report) = try await alice.send("second, for both of bob's devices", to: "bob")
        #expect(sent.state == .sent && report.sent.count == 1 && report.failed.isEmpty)
        #expect(try await alice.crypto.directory.devices(of: "bob").count == 2, "learnt from devices_changed")
        let bobLaptop = try laptop.session()
        let stored = try await bobLaptop.api.send(ChirpEndpoints.ListMessages(with: "alice", limit: 10)).items
        #expect(stored.count == 2, "sent once")
        #expect(stored.filter { $0.clientMessageId == sent.clientMessageId }.count == 1)
        let read = try await bobLaptop.messages(with: "alice", limit: 10, refresh: true).items
        #expect(read.map(\.verification) == [.notSealedToThisDevice, .opened])
        #expect(read.last?.text == "second, for both of bob's devices" && read.first?.text == "")
        #expect(read.first?.shownText == "sent before this device was added: it cannot read it")
    }

    @Test func aTamperedEnvelopeShowsCouldNotBeVerifiedAndNeverText() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob", "carol"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        let carol = try homes["carol"]!.session()
        try await alice.turnOnEncryption(peer: "bob")
        _ = try await alice.send("genuine", to: "bob")
        let original = try #require(
            try await bob.api.send(ChirpEndpoints.ListMessages(with: "alice", limit: 10)).items.last)
        let envelope = try #require(original.envelope)

        func shown(_ message: Message) async throws -> LocalMessage? {
            _ = try await bob.sync.apply(Event(seq: nil, createdAt: .now(), payload: .messageCreated(message)))
            return try await bob.messages(with: "alice", limit: 20, refresh: false).items.first {
                $0.clientMessageId == message.clientMessageId
            }
        }
        var tampered = original
        tampered.clientMessageId = "tampered-ciphertext"
        tampered.id = "900001"
        var bytes = try #require(Base64URL.decode(envelope.ciphertext))
        bytes[0] ^= 1
        tampered.envelope?.ciphertext = Base64URL.encode(bytes)
        // The same envelope moved to another message id: its signature binds the first.
        var moved = original
        moved.clientMessageId = "moved-envelope"
        moved.id = "900002"
        // Claimed by a device of someone else: looked up among the sender's devices only.
        var borrowed = original
        borrowed.clientMessageId = "borrowed-device"
        borrowed.id = "900003"
        borrowed.envelope?.senderDevice = try await carol.thisDeviceId()
        for message in [tampered, moved, borrowed] {
            let row = try #require(try await shown(message))
            #expect(row.verification == .couldNotVerify && row.text.isEmpty, "\(message.clientMessageId)")
            #expect(row.shownText == "could not be verified")
        }
        // The genuine one opens.
        _ = try await bob.synchronize()
        let genuine = try await bob.database.messages.fetch(
            id: LocalMessage.key(sender: "alice", clientMessageId: original.clientMessageId))
        #expect(genuine?.text == "genuine" && genuine?.verification == .opened)
    }

    @Test func anEncryptedAttachmentIsUploadedAsCiphertextAndOpensForTheRecipient() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        try await alice.turnOnEncryption(peer: "bob")
        let marker = "attachment secret \(UUID().uuidString)"
        let file = try MediaClientTests.file("plans.txt", Data((marker + "\n").utf8))
        let (sent, _) = try await alice.send("see attached", to: "bob", attachments: [file])
        #expect(sent.state == .sent && sent.mediaKeys.count == 1)
        _ = try await bob.synchronize()
        let message = try #require(try await bob.messages(with: "alice", limit: 10, refresh: true).items.last)
        #expect(
            message.attachments.map(\.name) == ["plans.txt"] && message.attachments.first?.contentType == "text/plain")
        let media = try #require(message.media.first)
        #expect(media.contentType == "application/octet-stream" && media.filename == nil, "the server sees neither")
        let target = ServerProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let saved = try await bob.download(media, to: target)
        #expect(saved.lastPathComponent == "plans.txt")
        #expect(try String(contentsOf: saved, encoding: .utf8) == marker + "\n")
        let leaks = try Self.files(containing: marker, under: server.dataDirectory)
        #expect(leaks.isEmpty, "the file's text is in \(leaks)")
    }

    @Test func theEncryptionKeyRotatesAfterSevenDaysAndTheOldOneGoesOnceTheStreamIsRead() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let homes = try await EndToEndTests.community(["alice", "bob"], server: server.baseURL)
        let alice = try homes["alice"]!.session()
        let bob = try homes["bob"]!.session()
        try await alice.turnOnEncryption(peer: "bob")
        // Sealed to bob's first key.
        _ = try await alice.send("before the rotation", to: "bob")

        let later = Timestamp(
            millisecondsSince1970: Timestamp.now().millisecondsSince1970 + ThisDevice.rotationInterval)
        let device = ThisDevice(
            directory: bob.context.directory, database: bob.database, api: bob.api, now: { later })
        let before = try await device.currentKeys().encryptionPublicKey
        let rotated = try await device.registered()
        #expect(rotated.encryptionPublicKey != before && rotated.retiredKeys.count == 1)
        #expect(try await alice.devices(of: "bob").map(\.encryptionKey) == [rotated.encryptionPublicKey])

        // The old key still opens what was sealed to it; a catch-up that began well after the
        // rotation drops it.
        let reopened = try homes["bob"]!.session()
        #expect(
            try await reopened.messages(with: "alice", limit: 5, refresh: true).items.last?.text
                == "before the rotation")
        try await device.caughtUp(
            startedAt: Timestamp(millisecondsSince1970: later.millisecondsSince1970 + 2 * ThisDevice.dropMargin))
        #expect(try await device.currentKeys().retiredKeys.isEmpty)
        #expect(try DeviceKeyFile(directory: bob.context.directory).load()?.retiredKeys.isEmpty == true)
    }
}
