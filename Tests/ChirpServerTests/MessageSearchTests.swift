import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// `GET /v1/search/messages` (API.md part 2): the viewer's own conversations, every word,
/// case- and accent-insensitive, whole words, newest first, paged, unsent and replaced text
/// never found; and the same answers from SQLite and PostgreSQL for the same data.
@Suite("Message search")
struct MessageSearchTests {
    /// Texts Alice sends Bob, oldest first, and a few to Carol.
    static let toBob = [
        "Café au lait this morning?", "CAFE tomorrow, same time", "the café is closed", "Résumé sent to the agency",
        "resume work after lunch", "a naïve idea", "ÜBER cool", "Straße und Weg", "don't panic", "e-mail me the plan",
        "日本語 のテキスト", "emoji 👍 test", "\"quoted\" words and * stars", "NEAR(cafe) OR resume",
    ]
    static let toCarol = ["cafe with carol", "résumé for carol"]
    /// Queries, including FTS syntax that must be read as words, and prefixes (no match).
    static let queries = [
        "cafe", "CAFÉ", "café closed", "resume", "RÉSUMÉ agency", "uber", "über COOL", "strasse", "straße", "don't",
        "dont", "don", "e-mail", "mail", "日本語", "👍", "\"quoted", "*", "NEAR(cafe)", "cafe OR resume", "-cafe", "caf",
        "naive", "cafe morning tomorrow", "the", "au lait", "!!!",
    ]

    static func seed(_ api: APIHarness) async throws -> (alice: Session, bob: Session, carol: Session) {
        let (alice, bob, carol) = try await MessageActionTests.people(api)
        for text in toBob { _ = try await api.sent(alice, to: "bob", text) }
        for text in toCarol { _ = try await api.sent(alice, to: "carol", text) }
        return (alice, bob, carol)
    }

    /// Every query's answer for Bob, and for Alice with Carol only.
    static func answers(_ api: APIHarness, _ bob: Session, _ alice: Session) async throws -> [[String]] {
        var all: [[String]] = []
        for query in queries {
            all.append(try await api.found(bob, query))
            all.append(try await api.found(alice, query, peer: "carol"))
        }
        return all
    }

    @Test func findsEveryWordIgnoringCaseAndAccents() async throws {
        try await TestServer.run { api in
            let (alice, bob, carol) = try await Self.seed(api)
            #expect(
                try await api.found(bob, "cafe") == [
                    "NEAR(cafe) OR resume", "the café is closed", "CAFE tomorrow, same time",
                    "Café au lait this morning?",
                ])
            #expect(try await api.found(bob, "CAFÉ closed") == ["the café is closed"])
            #expect(
                try await api.found(bob, "résumé") == [
                    "NEAR(cafe) OR resume", "resume work after lunch", "Résumé sent to the agency",
                ])
            #expect(try await api.found(bob, "uber") == ["ÜBER cool"])
            #expect(try await api.found(bob, "naive") == ["a naïve idea"])
            // Whole words only, and FTS syntax is just words.
            #expect(try await api.found(bob, "caf").isEmpty)
            #expect(try await api.found(bob, "NEAR(cafe) OR resume") == ["NEAR(cafe) OR resume"])
            #expect(try await api.found(bob, "\"quoted").count == 1)
            #expect(try await api.found(bob, "*").isEmpty)
            #expect(try await api.found(bob, "!!!").isEmpty)
            // Only the viewer's conversations: Bob never sees Alice's messages to Carol.
            #expect(try await api.found(bob, "carol").isEmpty)
            #expect(try await api.found(carol, "cafe") == ["cafe with carol"])
            #expect(try await api.found(alice, "cafe").count == 5)
            #expect(try await api.found(alice, "cafe", peer: "carol") == ["cafe with carol"])
            #expect(try await api.found(alice, "cafe", peer: "CAROL") == ["cafe with carol"])
            #expect(try await api.search(alice, "cafe", peer: "ghost").status == 404)
        }
    }

    @Test func pagesNewestFirstWithACursor() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await MessageActionTests.people(api)
            var sent: [String] = []
            for index in 0..<7 { sent.append(try await api.sent(alice, to: "bob", "page item \(index)").id) }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page: Page<Message> = try await api.search(bob, "page ITEM", limit: 3, cursor: cursor).decode()
                #expect(page.items.count <= 3)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == sent.reversed())
            #expect(try await api.search(bob, "page", cursor: "nonsense").status == 400)
            #expect(try await api.search(bob, "page", limit: 0).status == 400)
        }
    }

    @Test func queriesAreOneToTwoHundredCharacters() async throws {
        try await TestServer.run { api in
            let (_, bob, _) = try await MessageActionTests.people(api)
            let missing = try await api.search(bob, nil)
            #expect(missing.status == 400 && missing.errorCode == "invalid_parameter")
            for bad in ["", "   ", String(repeating: "a", count: 201)] {
                let refused = try await api.search(bob, bad)
                #expect(refused.status == 422 && refused.errorCode == "invalid_query")
            }
            #expect(try await api.search(bob, String(repeating: "a", count: 200)).status == 200)
            #expect(try await api.send(.GET, "/v1/search/messages?q=x").status == 401)
        }
    }

    @Test func unsentNeverMatchAndEditsMatchTheirNewText() async throws {
        try await TestServer.run { api in
            let (alice, bob, _) = try await MessageActionTests.people(api)
            let gone = try await api.sent(alice, to: "bob", "secret plan alpha")
            let changed = try await api.sent(alice, to: "bob", "meet at the harbour")
            #expect(try await api.unsend(alice, with: "bob", gone.id).status == 204)
            #expect(try await api.found(bob, "secret").isEmpty)
            #expect(try await api.edit(alice, with: "bob", changed.id, "meet at the station").status == 200)
            #expect(try await api.found(bob, "harbour").isEmpty)
            #expect(try await api.found(alice, "station meet") == ["meet at the station"])
            // Reactions leave the text's index alone.
            #expect(try await api.react(bob, with: "alice", changed.id, "👍").status == 204)
            #expect(try await api.found(bob, "station") == ["meet at the station"])
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
    func sqliteAndPostgresAnswerAlike() async throws {
        var sqlite = TestServer.configuration()
        sqlite.postgres = nil
        var postgres = TestServer.configuration()
        postgres.postgres = TestDatabase.postgresSettings(key: postgres.dataDirectory.lastPathComponent)
        var results: [[[String]]] = []
        for configuration in [sqlite, postgres] {
            results.append(
                try await TestServer.run(configuration) { api in
                    let (alice, bob, _) = try await Self.seed(api)
                    return try await Self.answers(api, bob, alice)
                })
        }
        #expect(results[0] == results[1])
        #expect(results[0].contains { !$0.isEmpty })
    }
}
