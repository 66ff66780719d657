import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The client API layer against a real `chirp serve` process on a free port.
@Suite("Client API against a real server")
struct APIIntegrationTests {
    @Test func registerFollowSendPageAndRead() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let alice = ChirpAPIClient(baseURL: server.baseURL)
        let bob = ChirpAPIClient(baseURL: server.baseURL)
        let carol = ChirpAPIClient(baseURL: server.baseURL)
        #expect(try await alice.send(ChirpEndpoints.Health()).status == "ok")
        try await alice.register("alice", password: "alice-password", displayName: "Alice")
        try await bob.register("bob", password: "bob-password")
        try await carol.register("carol", password: "carol-password")
        _ = try await bob.send(ChirpEndpoints.Follow("alice"))
        #expect(try await alice.send(ChirpEndpoints.GetUser("bob")).followsYou == true)
        let followers = try await alice.send(ChirpEndpoints.ListUsers(.followers, of: "alice"))
        #expect(followers.items.map(\.username) == ["bob"])
        #expect(
            try await bob.send(ChirpEndpoints.ListUsers(.following, of: "bob", page: .init(limit: 1))).items.count == 1)

        var sent: [Message] = []
        for index in 0..<30 {
            sent.append(
                try await alice.send(
                    ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "m\(index)", text: "hello \(index) ✉️")))
        }
        let replay = try await alice.send(
            ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "m3", text: "hello 3 ✉️"))
        #expect(replay == sent[3])
        await #expect(
            throws: NetworkError.server(
                status: 409, code: "client_id_reused",
                message: "This clientMessageId was already used for another message; pick a new one.",
                field: "clientMessageId")
        ) {
            try await alice.send(ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "m3", text: "different"))
        }

        // Page backwards with `before`, then forwards with `after`.
        var page = try await bob.send(ChirpEndpoints.ListMessages(with: "alice", limit: 7))
        var backwards = page.items
        while let cursor = page.nextCursor {
            page = try await bob.send(ChirpEndpoints.ListMessages(with: "alice", limit: 7, before: cursor))
            backwards = page.items + backwards
        }
        #expect(backwards == sent)
        let forwards = try await bob.send(ChirpEndpoints.ListMessages(with: "alice", limit: 100, after: sent[24].id))
        #expect(forwards.items == Array(sent[25...]) && forwards.nextCursor == nil)

        _ = try await bob.send(ChirpEndpoints.MarkRead(peer: "alice", upTo: sent[14].id))
        let conversations = try await bob.send(ChirpEndpoints.ListConversations())
        #expect(conversations.items.map(\.unreadCount) == [15])
        let events = try await alice.send(ChirpEndpoints.Events(since: 0, limit: 1000))
        #expect(events.events.map(\.type).filter { $0 == "message.read" }.count == 1)
        #expect(events.lastSeq == events.events.last?.seq)

        let tweet = try await alice.send(ChirpEndpoints.PostTweet(clientTweetId: "t1", text: "first!"))
        #expect(try await bob.send(ChirpEndpoints.Timeline()).items.map(\.id) == [tweet.id])
        #expect(try await carol.send(ChirpEndpoints.UserTweets("alice")).items.count == 1)
        await #expect(throws: NetworkError.self) { try await carol.send(ChirpEndpoints.DeleteTweet(id: tweet.id)) }
        _ = try await alice.send(ChirpEndpoints.DeleteTweet(id: tweet.id))
        _ = try await bob.send(ChirpEndpoints.Unfollow("alice"))

        do {
            _ = try await carol.send(ChirpEndpoints.SendMessage(to: "alice", clientMessageId: "x", text: "hi"))
            Issue.record("carol may not message alice")
        } catch {
            #expect(error.status == 403)
            if case .server(_, let code, _, _) = error { #expect(code == "dm_not_allowed") }
        }
        await #expect(throws: NetworkError.self) { try await alice.send(ChirpEndpoints.GetUser("nobody")) }
        _ = try await bob.send(ChirpEndpoints.Typing(to: "alice"))

        try await carol.logout()
        await #expect(
            throws: NetworkError.server(
                status: 401, code: "unauthorized",
                message: "This call needs an 'Authorization: Bearer <token>' header; log in to get a token.", field: nil
            )
        ) {
            try await carol.send(ChirpEndpoints.Me())
        }
        try await carol.login("CAROL", password: "carol-password")
        #expect(try await carol.send(ChirpEndpoints.Me()).username == "carol")
        try await server.stop(signal: SIGTERM)
    }

    @Test func idempotentCallsSurviveAChaoticServer() async throws {
        let server = try await ServerProcess(arguments: ["--chaos", "0.4"])
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let alice = ChirpAPIClient(baseURL: server.baseURL, sleep: { _ in })
        let bob = ChirpAPIClient(baseURL: server.baseURL, sleep: { _ in })
        // Account creation is not idempotent; a chaos 503 is answered before any work, so
        // the test may simply try again.
        try await untilAccepted { _ = try await alice.register("alice", password: "alice-password") }
        try await untilAccepted { _ = try await bob.register("bob", password: "bob-password") }
        _ = try await bob.send(WithRetries(persistent, ChirpEndpoints.Follow("alice")))
        for index in 0..<20 {
            _ = try await alice.send(
                WithRetries(
                    persistent, ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "c\(index)", text: "n\(index)")))
        }
        let stored = try await bob.send(WithRetries(persistent, ChirpEndpoints.ListMessages(with: "alice", limit: 100)))
        #expect(stored.items.map(\.text) == (0..<20).map { "n\($0)" }, "every message once, in order")
        try await server.stop(signal: SIGTERM)
    }

    @Test func offlineClientsDoNotTouchTheNetwork() async throws {
        let client = ChirpAPIClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        client.client.server.isOffline = true
        await #expect(throws: NetworkError.offline) { try await client.send(ChirpEndpoints.Me()) }
        client.client.server.isOffline = false
        do {
            _ = try await client.send(ChirpEndpoints.Health())
            Issue.record("nothing listens on port 9")
        } catch {
            #expect(
                error == .transport(error.description.replacingOccurrences(of: "connection failed: ", with: ""))
                    || error == .timeout)
        }
    }
}

func untilAccepted(_ body: () async throws -> Void) async throws {
    for _ in 0..<50 {
        do {
            try await body()
            return
        } catch let error as NetworkError where error.status == 503 {
            continue
        }
    }
    Issue.record("never accepted")
}
