import ChirpEncryption
import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

@testable import ChirpServer

/// Encrypted conversations end to end (issue 55, API.md part 4) against a real server, on
/// SQLite (and PostgreSQL with `CHIRP_TEST_DATABASE=postgres`): the switch, envelope sends
/// checked against the members' current devices, plaintext refused, every member's device
/// opening what was sent, and the plaintext nowhere in the server's files.
@Suite("Encrypted conversations")
struct EncryptedConversationTests {
    /// A user's device: its keys, registered for the session.
    struct Phone {
        var keys = DeviceKeys.generate()
        var opener: EnvelopeOpener { EnvelopeOpener(keys: keys) }
        var sealer: EnvelopeSealer { EnvelopeSealer(keys: keys) }
    }

    @discardableResult
    static func register(_ api: APIHarness, _ viewer: Session, _ name: String = "phone") async throws -> Phone {
        let phone = Phone()
        let reply = try await api.send(
            .PUT, "/v1/me/devices/\(phone.keys.deviceId)", token: viewer.token, json: try phone.keys.request(name: name)
        )
        try #require(reply.status == 201, "device: \(reply.status) \(reply.text)")
        return phone
    }

    static func devices(_ api: APIHarness, _ viewer: Session, of usernames: [String]) async throws -> [Device] {
        var all: [Device] = []
        for name in usernames {
            all += try await api.send(.GET, "/v1/users/\(name)/devices", token: viewer.token).decode() as [Device]
        }
        return all
    }

    static func sealedSend(
        _ api: APIHarness, _ from: Session, _ phone: Phone, path: String, conversation: String, text: String,
        to devices: [Device], clientId: String = UUID().uuidString, media: [EncryptedMediaKey] = []
    ) async throws -> (Reply, SealedEnvelope) {
        let sealed = try phone.sealer.seal(
            EncryptedPlaintext(text: text, media: media), conversationId: conversation, clientMessageId: clientId,
            recipients: devices)
        let request = SendMessageRequest(envelope: sealed.envelope, mediaIds: media.isEmpty ? nil : media.map(\.id))
        let reply = try await api.send(.PUT, "\(path)/messages/\(clientId)", token: from.token, json: request)
        return (reply, sealed)
    }

    /// A plain `pg_dump` of the test's PostgreSQL database; nil on SQLite (or without pg_dump).
    static func dump(_ configuration: ServerConfiguration) async throws -> Data? {
        guard let postgres = configuration.postgres, PostgresBackupTests.tool("pg_dump") != nil else { return nil }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-e2ee-\(UUID()).sql")
        defer { try? FileManager.default.removeItem(at: dump) }
        try await PostgresBackupTests.run("pg_dump", ["--format=plain", "--file=\(dump.path)", postgres.url])
        return try Data(contentsOf: dump)
    }

    /// `message` as `phone` opens it, sent by the device with identity key `sender`.
    static func open(_ message: Message, by phone: Phone, conversation: String, sender: String) throws -> String? {
        let envelope = try #require(message.envelope)
        guard
            case .opened(let plaintext, _, _) = phone.opener.open(
                envelope, conversationId: conversation, clientMessageId: message.clientMessageId,
                senderIdentityKey: sender)
        else { return nil }
        return plaintext.text
    }

    @Test func aDirectConversationTakesOnlyEnvelopesSealedToEveryCurrentDevice() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            try await api.follow(ann, "bob")
            try await api.follow(bob, "ann")
            let early = try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token)
            #expect(early.status == 409 && early.errorCode == "no_devices", "\(early.text)")

            let laptop = try await Self.register(api, ann, "laptop")
            let annPhone = try await Self.register(api, ann)
            let bobPhone = try await Self.register(api, bob)
            #expect(try await api.sendMessage(ann, to: "bob", "before the switch").status == 201)
            #expect(try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token).status == 204)
            #expect(
                try await api.send(.PUT, "/v1/conversations/ann/encryption", token: bob.token).status == 204,
                "idempotent, from either side")
            let updates = try await api.allEvents(bob).compactMap { event -> Conversation? in
                if case .conversationUpdated(let conversation) = event.payload { return conversation }
                return nil
            }
            #expect(updates.map(\.encrypted) == [true], "bob's devices heard of it once")

            let plain = try await api.sendMessage(ann, to: "bob", "in the clear")
            #expect(plain.status == 422 && plain.errorCode == "encryption_required")

            let conversation = ConversationID.direct(ann.user.id, bob.user.id).rawValue
            let everyone = try await Self.devices(api, ann, of: ["ann", "bob"])
            #expect(everyone.count == 3)
            let secret = "meet at the old mill at nine \(UUID().uuidString)"
            let (sent, sealed) = try await Self.sealedSend(
                api, ann, laptop, path: "/v1/conversations/bob", conversation: conversation, text: secret, to: everyone)
            #expect(sent.status == 201, "\(sent.text)")
            let stored: Message = try sent.decode()
            #expect(stored.envelope == sealed.envelope && stored.text.isEmpty)
            #expect(sent.text.contains(#""text":null"#), "an encrypted message's text is null")
            let retry = try await api.send(
                .PUT, "/v1/conversations/bob/messages/\(stored.clientMessageId)", token: ann.token,
                json: SendMessageRequest(envelope: sealed.envelope))
            #expect(retry.status == 200, "a retry with the same envelope is the same message")

            // Every member's device opens it; the sender's own device was left out of the keys.
            let received = try #require(try await api.messages(bob, with: "ann").items.last)
            #expect(received.envelope == sealed.envelope)
            let senderKey = laptop.keys.identityPublicKey
            #expect(try Self.open(received, by: bobPhone, conversation: conversation, sender: senderKey) == secret)
            #expect(try Self.open(received, by: annPhone, conversation: conversation, sender: senderKey) == secret)
            #expect(
                laptop.opener.open(
                    sealed.envelope, conversationId: conversation, clientMessageId: stored.clientMessageId,
                    senderIdentityKey: senderKey) == .notSealedToThisDevice)
            let listed: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: bob.token).decode()
            #expect(listed.items.first?.encrypted == true && listed.items.first?.lastMessage?.envelope != nil)

            // Sealed to a list that misses a device: 409 with the current devices.
            let (missing, _) = try await Self.sealedSend(
                api, ann, laptop, path: "/v1/conversations/bob", conversation: conversation, text: "x",
                to: everyone.filter { $0.id != annPhone.keys.deviceId })
            #expect(missing.status == 409 && missing.errorCode == "devices_changed")
            let body = try JSONDecoder().decode(APIErrorBody.self, from: missing.body)
            #expect(body.error.devices?["ann"]?.count == 2 && body.error.devices?["bob"]?.count == 1)
            // A device added since is one more to seal to.
            let bobLaptop = try await Self.register(api, bob, "laptop")
            #expect(
                try await api.allEvents(ann).contains {
                    $0.payload == .deviceChanged(DeviceChangedNotice(user: "bob"))
                },
                "ann, who shares an encrypted conversation with bob, hears of his new device")
            let (stale, _) = try await Self.sealedSend(
                api, ann, laptop, path: "/v1/conversations/bob", conversation: conversation, text: "x", to: everyone)
            #expect(stale.errorCode == "devices_changed")
            let lateRetry = try await api.send(
                .PUT, "/v1/conversations/bob/messages/\(stored.clientMessageId)", token: ann.token,
                json: SendMessageRequest(envelope: sealed.envelope))
            #expect(lateRetry.status == 200, "a retry of a stored envelope is answered after a device change too")
            // Sealed by a device that is not the sender's.
            let (forged, _) = try await Self.sealedSend(
                api, ann, bobLaptop, path: "/v1/conversations/bob", conversation: conversation, text: "x",
                to: try await Self.devices(api, ann, of: ["ann", "bob"]))
            #expect(forged.status == 422 && forged.errorCode == "invalid_parameter")

            // Nor in the sender's server-side export, nor (PostgreSQL) in a dump of the database.
            let archive = try await DataExportTests.export(api, ann)
            #expect(archive.range(of: Data(secret.utf8)) == nil, "the export holds no plaintext")
            #expect(archive.range(of: Data("before the switch".utf8)) != nil, "the export holds the clear messages")
            if let dumped = try await Self.dump(configuration) {
                #expect(dumped.range(of: Data(secret.utf8)) == nil, "the dump holds no plaintext")
                #expect(dumped.range(of: Data("before the switch".utf8)) != nil, "the dump holds the clear messages")
            }
            // The plaintext is in none of the server's files (SQLite: the database, its log,
            // the media folder).
            if configuration.postgres == nil {
                let leaks = try Self.files(containing: Data(secret.utf8), under: configuration.dataDirectory)
                #expect(leaks.isEmpty, "the plaintext is in \(leaks)")
                let clear = try Self.files(
                    containing: Data("before the switch".utf8), under: configuration.dataDirectory)
                #expect(!clear.isEmpty, "the scan finds what was sent in the clear")
                // Nor in a backup taken while the server runs.
                let backup = ServerProcess.temporaryDirectory()
                defer { try? FileManager.default.removeItem(at: backup) }
                let backedUp = try await runChirp(
                    ["admin", "backup", backup.path, "--data-dir", configuration.dataDirectory.path])
                #expect(backedUp.status == 0, "\(backedUp.output)")
                #expect(try Self.files(containing: Data(secret.utf8), under: backup).isEmpty, "the backup holds none")
                #expect(!(try Self.files(containing: Data("before the switch".utf8), under: backup).isEmpty))
            }
            // A report proves the message with its content key and plaintext; a forged one fails.
            let key = Base64URL.encode(sealed.contentKey)
            let plaintext = String(decoding: sealed.plaintext, as: UTF8.self)
            func report(_ contentKey: String, _ text: String) async throws -> Reply {
                try await api.send(
                    .POST, "/v1/reports", token: bob.token,
                    json: ReportRequest(
                        username: "ann", messageId: stored.id, reason: "abuse", contentKey: contentKey, plaintext: text)
                )
            }
            let forgedText = plaintext.replacingOccurrences(of: "nine", with: "ten")
            #expect(try await report(key, forgedText).errorCode == "unverifiable_report")
            #expect(
                try await report(Base64URL.encode(Data(repeating: 7, count: 32)), plaintext).errorCode
                    == "unverifiable_report")
            #expect(try await report(key, plaintext).status == 202, "a true report is taken")
            if configuration.postgres == nil {
                let reported = try Self.files(containing: Data(secret.utf8), under: configuration.dataDirectory)
                #expect(!reported.isEmpty, "a member's true report puts the text on the server, for the operators")
            }

        }
    }

    @Test func aSwitchBeforeTheFirstMessageTellsBothPeopleSoNeitherWritesInTheClear() async throws {
        try await TestServer.run(TestServer.configuration()) { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            try await api.follow(bob, "ann")
            _ = try await Self.register(api, ann)
            _ = try await Self.register(api, bob)
            #expect(try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token).status == 204)
            for (viewer, peer) in [(ann, "bob"), (bob, "ann")] {
                let updates = try await api.allEvents(viewer).compactMap { event -> Conversation? in
                    if case .conversationUpdated(let conversation) = event.payload { return conversation }
                    return nil
                }
                #expect(updates.count == 1, "\(viewer.user.username) heard of the switch once")
                #expect(updates.first?.peer.username == peer && updates.first?.encrypted == true)
                #expect(updates.first.map { $0.lastMessage == nil } == true, "no message yet")
                let listed = try await api.send(.GET, "/v1/conversations", token: viewer.token)
                #expect(try listed.decode(Page<Conversation>.self).items.isEmpty, "not listed before its first message")
            }
            let plain = try await api.sendMessage(ann, to: "bob", "first words")
            #expect(plain.status == 422 && plain.errorCode == "encryption_required", "\(plain.text)")
        }
    }

    @Test func anEncryptedAttachmentIsStoredAsCiphertextThatOnlyTheMembersDevicesOpen() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            try await api.follow(bob, "ann")
            let annPhone = try await Self.register(api, ann)
            let bobPhone = try await Self.register(api, bob)
            #expect(try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token).status == 204)
            let marker = "the attachment's secret \(UUID().uuidString)"
            let file = try AttachmentCipher.encrypt(Data(marker.utf8))
            let upload: Media = try await api.putMedia(ann, "plans", file.uploaded).decode()
            let conversation = ConversationID.direct(ann.user.id, bob.user.id).rawValue
            let (sent, _) = try await Self.sealedSend(
                api, ann, annPhone, path: "/v1/conversations/bob", conversation: conversation, text: "see attached",
                to: try await Self.devices(api, ann, of: ["ann", "bob"]),
                media: [file.mediaKey(id: upload.id, contentType: "text/plain", name: "plans.txt")])
            #expect(sent.status == 201, "\(sent.text)")

            // bob's device opens the envelope and, with the key inside it, the file.
            let received = try #require(try await api.messages(bob, with: "ann").items.last)
            #expect(received.media.map(\.id) == [upload.id])
            guard
                case .opened(let plaintext, _, _) = bobPhone.opener.open(
                    try #require(received.envelope), conversationId: conversation,
                    clientMessageId: received.clientMessageId, senderIdentityKey: annPhone.keys.identityPublicKey)
            else {
                Issue.record("bob's device does not open the envelope")
                return
            }
            let key = try #require(plaintext.media.first)
            let bytes = try await api.mediaBytes(bob, upload.id)
            #expect(String(decoding: try AttachmentCipher.decrypt(bytes, with: key), as: UTF8.self) == marker)

            // The server holds ciphertext only: in its files (SQLite) or its database (PostgreSQL).
            if let dumped = try await Self.dump(configuration) {
                #expect(dumped.range(of: Data(marker.utf8)) == nil, "the dump holds no plaintext")
            }
            let leaks = try Self.files(containing: Data(marker.utf8), under: configuration.dataDirectory)
            #expect(leaks.isEmpty, "the file's text is in \(leaks)")
        }
    }

    @Test func aRemovedDeviceReadsNothingSentAfterItWent() async throws {
        try await TestServer.run(TestServer.configuration()) { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            try await api.follow(bob, "ann")
            let annPhone = try await Self.register(api, ann)
            let bobPhone = try await Self.register(api, bob)
            let bobLaptop = try await Self.register(api, bob, "laptop")
            #expect(try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token).status == 204)
            let conversation = ConversationID.direct(ann.user.id, bob.user.id).rawValue
            let before = try await Self.devices(api, ann, of: ["ann", "bob"])
            let path = "/v1/conversations/bob"
            let (first, _) = try await Self.sealedSend(
                api, ann, annPhone, path: path, conversation: conversation, text: "while it was there", to: before)
            #expect(first.status == 201)
            let sender = annPhone.keys.identityPublicKey
            #expect(try Self.open(try first.decode(), by: bobLaptop, conversation: conversation, sender: sender) != nil)

            let removed = try await api.send(.DELETE, "/v1/me/devices/\(bobLaptop.keys.deviceId)", token: bob.token)
            #expect(removed.status == 204)
            let (stale, _) = try await Self.sealedSend(
                api, ann, annPhone, path: path, conversation: conversation, text: "after it went", to: before)
            #expect(stale.status == 409 && stale.errorCode == "devices_changed", "sealed to a device that is gone")
            let (next, _) = try await Self.sealedSend(
                api, ann, annPhone, path: path, conversation: conversation, text: "after it went",
                to: try await Self.devices(api, ann, of: ["ann", "bob"]))
            #expect(next.status == 201, "\(next.text)")
            let message: Message = try next.decode()
            #expect(
                bobLaptop.opener.open(
                    try #require(message.envelope), conversationId: conversation,
                    clientMessageId: message.clientMessageId, senderIdentityKey: sender) == .notSealedToThisDevice)
            #expect(try Self.open(message, by: bobPhone, conversation: conversation, sender: sender) == "after it went")
        }
    }

    @Test func anEnvelopeNeedsAnEncryptedConversationAndAMemberOfEveryKind() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            _ = try await api.register("bob")
            let carol = try await api.register("carol")
            try await api.follow(carol, "ann")
            let phone = try await Self.register(api, ann)
            try await Self.register(api, carol)
            let devices = try await Self.devices(api, ann, of: ["ann", "carol"])
            let (reply, _) = try await Self.sealedSend(
                api, ann, phone, path: "/v1/conversations/carol",
                conversation: ConversationID.direct(ann.user.id, carol.user.id).rawValue, text: "hi", to: devices)
            #expect(reply.status == 422 && reply.errorCode == "encryption_not_enabled")
            let blocked = try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token)
            #expect(blocked.status == 403 || blocked.status == 409, "bob may not be messaged by ann: \(blocked.text)")
            #expect(try await api.send(.PUT, "/v1/conversations/nobody/encryption", token: ann.token).status == 404)
        }
    }

    @Test func aGroupEnvelopeSealedToEveryDeviceIsTakenBeyondTheOrdinaryBodyLimit() async throws {
        // A small ordinary limit stands for a large group: 2 KiB here, about 30 keys' worth.
        let configuration = TestServer.configuration { $0.maxBodyBytes = 2048 }
        try await TestServer.run(configuration) { api in
            let (ann, members) = try await api.people("ann", ["bob"])
            let group = try await api.group(ann, ["bob"])
            let annPhone = try await Self.register(api, ann)
            for number in 1...20 { try await Self.register(api, members[0], "device \(number)") }
            #expect(try await api.send(.PUT, "/v1/groups/\(group.id)/encryption", token: ann.token).status == 204)
            let conversation = ConversationID.group(group.id).rawValue
            let path = "/v1/groups/\(group.id)"
            let devices = try await Self.devices(api, ann, of: ["ann", "bob"])
            let (sent, sealed) = try await Self.sealedSend(
                api, ann, annPhone, path: path, conversation: conversation, text: "to every device", to: devices)
            #expect(sent.status == 201, "\(sent.text)")
            #expect(try JSONEncoder().encode(sealed.envelope).count > configuration.maxBodyBytes)
            let stored: Message = try sent.decode()
            let edited = try annPhone.sealer.seal(
                EncryptedPlaintext(text: "to every device, edited", media: []), conversationId: conversation,
                clientMessageId: stored.clientMessageId, recipients: devices)
            let edit = try await api.send(
                .PATCH, "\(path)/messages/\(stored.id)", token: ann.token,
                json: EditMessageRequest(envelope: edited.envelope))
            #expect(edit.status == 200, "\(edit.text)")
            // Other bodies keep the ordinary limit.
            let long = try await api.sendMessage(ann, to: "bob", String(repeating: "x", count: 3000))
            #expect(long.status == 413, "\(long.text)")
        }
    }

    @Test func aGroupIsEncryptedByAnAdminOnceEveryMemberHasADevice() async throws {
        try await TestServer.run { api in
            let (ann, members) = try await api.people("ann", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let group = try await api.group(ann, ["bob", "carol"])
            let annPhone = try await Self.register(api, ann)
            let bobPhone = try await Self.register(api, bob)
            let early = try await api.send(.PUT, "/v1/groups/\(group.id)/encryption", token: ann.token)
            #expect(early.status == 409 && early.errorCode == "no_devices")
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: early.body).error.field == "carol")
            let carolPhone = try await Self.register(api, carol)
            let notAdmin = try await api.send(.PUT, "/v1/groups/\(group.id)/encryption", token: bob.token)
            #expect(notAdmin.status == 403, "\(notAdmin.text)")
            #expect(try await api.send(.PUT, "/v1/groups/\(group.id)/encryption", token: ann.token).status == 204)
            let fetched: Group = try await api.getGroup(carol, group.id).decode()
            #expect(fetched.encrypted)
            #expect(
                try await api.allEvents(carol).contains {
                    if case .groupUpdated(let updated) = $0.payload { return updated.encrypted }
                    return false
                })

            #expect(try await api.sendToGroup(bob, group.id, "plain").errorCode == "encryption_required")
            let conversation = ConversationID.group(group.id).rawValue
            let devices = try await Self.devices(api, bob, of: ["ann", "bob", "carol"])
            let (sent, _) = try await Self.sealedSend(
                api, bob, bobPhone, path: "/v1/groups/\(group.id)", conversation: conversation, text: "group secret",
                to: devices)
            #expect(sent.status == 201, "\(sent.text)")
            let page: Page<Message> = try await api.groupMessages(carol, group.id).decode()
            let message = try #require(page.items.last)
            let sender = bobPhone.keys.identityPublicKey
            #expect(
                try Self.open(message, by: carolPhone, conversation: conversation, sender: sender) == "group secret")
            #expect(try Self.open(message, by: annPhone, conversation: conversation, sender: sender) == "group secret")
            let (short, _) = try await Self.sealedSend(
                api, bob, bobPhone, path: "/v1/groups/\(group.id)", conversation: conversation, text: "x",
                to: devices.filter { $0.id != carolPhone.keys.deviceId })
            #expect(short.status == 409 && short.errorCode == "devices_changed")
        }
    }

    @Test func anEncryptedMessageIsEditedWithANewEnvelopeOnly() async throws {
        try await TestServer.run { api in
            let ann = try await api.register("ann")
            let bob = try await api.register("bob")
            try await api.follow(bob, "ann")
            let annPhone = try await Self.register(api, ann)
            let bobPhone = try await Self.register(api, bob)
            #expect(try await api.send(.PUT, "/v1/conversations/bob/encryption", token: ann.token).status == 204)
            let conversation = ConversationID.direct(ann.user.id, bob.user.id).rawValue
            let devices = try await Self.devices(api, ann, of: ["ann", "bob"])
            let (sent, _) = try await Self.sealedSend(
                api, ann, annPhone, path: "/v1/conversations/bob", conversation: conversation, text: "first",
                to: devices)
            let message: Message = try sent.decode()
            let path = "/v1/conversations/bob/messages/\(message.id)"
            let plain = try await api.send(.PATCH, path, token: ann.token, json: EditMessageRequest(text: "second"))
            #expect(plain.status == 422 && plain.errorCode == "encryption_required")
            let resealed = try annPhone.sealer.seal(
                EncryptedPlaintext(text: "second"), conversationId: conversation,
                clientMessageId: message.clientMessageId, recipients: devices)
            let edited = try await api.send(
                .PATCH, path, token: ann.token, json: EditMessageRequest(envelope: resealed.envelope))
            #expect(edited.status == 200, "\(edited.text)")
            let read = try #require(try await api.messages(bob, with: "ann").items.last)
            #expect(read.editedAt != nil)
            #expect(
                try Self.open(read, by: bobPhone, conversation: conversation, sender: annPhone.keys.identityPublicKey)
                    == "second")
            let updated = try await api.allEvents(bob).last { $0.type == EventType.messageUpdated }
            if case .messageUpdated(let carried) = updated?.payload {
                #expect(carried.envelope == resealed.envelope, "the event carries the new envelope")
            } else {
                Issue.record("bob's stream has no message.updated")
            }
            let bobSealed = try bobPhone.sealer.seal(
                EncryptedPlaintext(text: "not yours"), conversationId: conversation,
                clientMessageId: message.clientMessageId, recipients: devices)
            let byBob = try await api.send(
                .PATCH, "/v1/conversations/ann/messages/\(message.id)", token: bob.token,
                json: EditMessageRequest(envelope: bobSealed.envelope))
            #expect(byBob.status == 403, "only the sender edits")
        }
    }

    /// The files under `directory` whose bytes contain `needle`.
    static func files(containing needle: Data, under directory: URL) throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            if try Data(contentsOf: url).range(of: needle) != nil { found.append(url.lastPathComponent) }
        }
        return found
    }
}
