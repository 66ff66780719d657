import ChirpClient
import ChirpModels
import ChirpTerminal
import ChirpTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal app's live client (`AppClient.live`) against a real server: what the keys
/// call reaches the server, and the conversation reads back what the other person sees.
@Suite("Terminal app: live client against a server")
struct LiveAppClientTests {
    /// Waits (up to 30 s) until the conversation with `peer`, read from the local data, passes
    /// `check`; returns it as it is then.
    static func rows(_ client: AppClient, with peer: String, until check: ([LocalMessage]) -> Bool) async throws
        -> [LocalMessage]
    {
        let deadline = ContinuousClock.now + .seconds(30)
        var rows = try await client.messages(peer, 30, false).messages
        while !check(rows), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            rows = try await client.messages(peer, 30, false).messages
        }
        return rows
    }

    /// Alice's copy of the conversation on the server, waiting (up to 30 s) for `check`.
    static func serverCopy(_ alice: ChirpAPIClient, until check: ([Message]) -> Bool) async throws -> [Message] {
        let deadline = ContinuousClock.now + .seconds(30)
        var messages = try await alice.send(ChirpEndpoints.ListMessages(with: "bob")).items
        while !check(messages), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            messages = try await alice.send(ChirpEndpoints.ListMessages(with: "bob")).items
        }
        return messages
    }

    /// alice and bob, registered on `server` and following each other (so they may message).
    static func aliceAndBob(on server: ServerProcess) async throws -> (alice: ChirpAPIClient, bob: ChirpAPIClient) {
        let alice = ChirpAPIClient(baseURL: server.baseURL)
        let bob = ChirpAPIClient(baseURL: server.baseURL)
        try await alice.register("alice", password: "alice-password")
        try await bob.register("bob", password: "bob-password")
        _ = try await alice.send(ChirpEndpoints.Follow("bob"))
        _ = try await bob.send(ChirpEndpoints.Follow("alice"))
        return (alice, bob)
    }

    @Test func anAttachmentIsUploadedWithProgressSentAndSavedIntoAFolder() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let (alice, bob) = try await Self.aliceAndBob(on: server)
        let home = ServerProcess.temporaryDirectory()
        let folder = ServerProcess.temporaryDirectory()
        defer { for directory in [home, folder] { try? FileManager.default.removeItem(at: directory) } }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = folder.appendingPathComponent("menu.pdf")
        try bytes.write(to: file)

        let client = AppClient.live(app: try ChirpClientApp(home: home, server: server.baseURL, token: bob.token))
        #expect(try await client.restore() == "bob")
        let progress = Mutex<[TransferProgress]>([])
        let watching = Task {
            for await update in client.updates() {
                if case .transfer(let transfer) = update { progress.withLock { $0.append(transfer) } }
            }
        }
        defer { watching.cancel() }
        try await Task.sleep(for: .milliseconds(200))  // the update stream is listening

        let chosen = try client.inspectFile(file.path)
        #expect(chosen.summary == "menu.pdf · application/pdf · 293 KB")
        try await client.send("alice", AppClient.Outgoing(text: "", attachments: [chosen.url]))
        let rows = try await Self.rows(client, with: "alice") { rows in
            rows.contains { $0.state != .pending && !$0.media.isEmpty }
        }
        let sent = try #require(rows.first { !$0.media.isEmpty }, "the message went out with its media: \(rows)")
        #expect(sent.attachments.map(\.name) == ["menu.pdf"] && sent.attachments.allSatisfy { $0.mediaId != nil })
        let uploads = progress.withLock { $0 }.filter { $0.isUpload && $0.messageId == sent.id }
        #expect(
            uploads.last?.isFinished == true && uploads.last?.total == Int64(bytes.count),
            "the upload's progress came through: \(uploads)")

        let seen = try await alice.send(ChirpEndpoints.ListMessages(with: "bob")).items
        #expect(seen.first?.media.map(\.size) == [Int64(bytes.count)], "alice has the media: \(seen)")

        // Saved into a folder typed at the prompt: the file lands in it, the folder stays.
        let saves = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: saves) }
        try FileManager.default.createDirectory(at: saves, withIntermediateDirectories: true)
        let saved = try await client.download(sent.media[0], saves)
        #expect(saved.path == saves.appendingPathComponent("menu.pdf").path)
        #expect(try Data(contentsOf: saved) == bytes, "the exact bytes")
        let cached = try await client.download(sent.media[0], nil)
        #expect(try Data(contentsOf: cached) == bytes)
        try await client.logout()
        try await server.stop(signal: SIGTERM)
    }

    @Test func reactReplyEditUnsendAndSearchReachTheServer() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let (alice, bob) = try await Self.aliceAndBob(on: server)
        _ = try await alice.send(
            ChirpEndpoints.SendMessage(
                to: "bob", clientMessageId: "1", text: "Lunch on Friday? The ramen place opened."))
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = AppClient.live(app: try ChirpClientApp(home: home, server: server.baseURL, token: bob.token))
        #expect(try await client.restore() == "bob")

        var rows = try await client.messages("alice", 30, true).messages
        let lunch = try #require(rows.first { $0.text.hasPrefix("Lunch") }, "alice's message is there: \(rows)")
        try await client.react("alice", lunch.id, "👍", false)
        try await client.send("alice", AppClient.Outgoing(text: "Count me in", replyTo: lunch.id))
        rows = try await Self.rows(client, with: "alice") { rows in
            rows.contains { $0.text == "Count me in" && $0.state != .pending }
        }
        let reply = try #require(rows.first { $0.text == "Count me in" })
        #expect(reply.state != .pending && reply.replyTo != nil, "the reply was sent, naming the message: \(reply)")
        try await client.edit("alice", reply.id, "Count me in, and carol")

        var seen = try await Self.serverCopy(alice) { messages in
            messages.contains { $0.text == "Count me in, and carol" } && messages.contains { !$0.reactions.isEmpty }
        }
        let original = try #require(seen.first { $0.clientMessageId == "1" })
        #expect(
            original.reactions.map(\.emoji) == ["👍"] && original.reactions.first?.users == ["bob"],
            "alice sees bob's 👍: \(original)")
        let edited = try #require(seen.first { $0.text == "Count me in, and carol" }, "alice sees the edit: \(seen)")
        #expect(edited.editedAt != nil && edited.replyTo == original.id, "edited, answering her message: \(edited)")

        let found = try await client.search("ramen friday", nil)
        #expect(found.map(\.id) == [original.id], "search finds the message by every word, any case: \(found)")

        try await client.unsend("alice", reply.id)
        seen = try await Self.serverCopy(alice) { messages in messages.contains { $0.id == edited.id && $0.deleted } }
        #expect(seen.first { $0.id == edited.id }?.deleted == true, "alice sees it unsent: \(seen)")
        rows = try await Self.rows(client, with: "alice") { rows in rows.contains { $0.id == reply.id && $0.deleted } }
        #expect(rows.first { $0.id == reply.id }?.deleted == true, "unsent here too")
        try await client.logout()
        try await server.stop(signal: SIGTERM)
    }

    /// The bell setting is kept per user where the theme is (a new run reads it back), and the
    /// muted conversations come from the local list once one is muted.
    @Test func theBellSettingIsKeptAndMutedConversationsAreRead() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let (alice, bob) = try await Self.aliceAndBob(on: server)
        _ = try await alice.send(ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "1", text: "Hi bob"))
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = AppClient.live(app: try ChirpClientApp(home: home, server: server.baseURL, token: bob.token))
        #expect(try await client.restore() == "bob")
        #expect(!client.loadBell(), "off by default")
        client.saveBell(true)
        let again = AppClient.live(app: try ChirpClientApp(home: home, server: server.baseURL, token: bob.token))
        #expect(try await again.restore() == "bob")
        #expect(again.loadBell(), "remembered for bob")

        _ = try await client.conversations(true)
        #expect(try await client.mutedConversations() == [])
        try await client.markConversation("alice", .mute)
        #expect(try await client.mutedConversations() == ["alice"])
        try await client.logout()
        try await server.stop(signal: SIGTERM)
    }
}
