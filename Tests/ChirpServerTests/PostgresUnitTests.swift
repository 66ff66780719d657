import ChirpModels
import Testing

@testable import ChirpServer

/// The PostgreSQL pieces that need no server: database URLs and the notification payloads.
@Suite("PostgreSQL settings and notifications")
struct PostgresUnitTests {
    @Test func databaseURLsParseAndNeverShowThePassword() throws {
        let settings = try PostgresSettings(url: "postgres://chirp:s%40cret@db.example:6543/chirp_prod", poolSize: 32)
        #expect(settings.host == "db.example" && settings.port == 6543 && settings.username == "chirp")
        #expect(settings.password == "s@cret" && settings.database == "chirp_prod" && settings.poolSize == 32)
        #expect(settings.redactedURL == "postgres://chirp:***@db.example:6543/chirp_prod")
        #expect(!settings.redactedURL.contains("cret"))
        #expect(
            try PostgresSettings(url: settings.url)
                == PostgresSettings(url: "postgres://chirp:s%40cret@db.example:6543/chirp_prod"))
        #expect(try PostgresSettings(url: "postgresql://me@localhost/app").port == 5432)
    }

    @Test func aURLMayListAPrimaryAndItsStandbys() throws {
        let settings = try PostgresSettings(
            url: "postgres://chirp:pw@10.0.0.1:5433,10.0.0.2,db3:6000/chirp?target_session_attrs=read-write")
        #expect(
            settings.endpoints == [
                .init(host: "10.0.0.1", port: 5433), .init(host: "10.0.0.2", port: 5432),
                .init(host: "db3", port: 6000),
            ])
        #expect(settings.username == "chirp" && settings.password == "pw" && settings.database == "chirp")
        #expect(settings.redactedURL == "postgres://chirp:***@10.0.0.1:5433,10.0.0.2:5432,db3:6000/chirp")
        #expect(
            try PostgresSettings(url: settings.url) == settings, "the URL handed to child processes keeps every host")
        #expect(throws: PostgresSettingsError.self) { try PostgresSettings(url: "postgres://u:p@h1,:5/db") }
        #expect(throws: PostgresSettingsError.self) { try PostgresSettings(url: "postgres://u:p@h1,h2:x/db") }
        #expect(throws: PostgresSettingsError.self) {
            try PostgresSettings(url: "postgres://u:p@h1,h2/db?target_session_attrs=any")
        }
    }

    @Test(arguments: [
        ("mysql://u:p@h/db", "must look like postgres://"),
        ("postgres://u:p@/db", "no host"),
        ("postgres://h:5432/db", "no user name"),
        ("postgres://u:p@h:5432", "names no database"),
        ("postgres://u:p@h:5432/", "names no database"),
    ])
    func badDatabaseURLsSayWhatIsWrong(url: String, expected: String) {
        #expect(throws: PostgresSettingsError.self) { try PostgresSettings(url: url) }
        do {
            _ = try PostgresSettings(url: url)
        } catch {
            #expect(error.description.contains(expected), "\(url): \(error.description)")
        }
    }

    @Test func busMessagesRoundTrip() {
        let wake = PostgresBusMessage(origin: "abc", content: .wake(users: [3, 1, 2]))
        #expect(wake.payload == "w|abc|3,1,2")
        #expect(PostgresBusMessage(payload: wake.payload) == wake)
        let everyone = PostgresBusMessage(origin: "abc", content: .wake(users: nil))
        #expect(PostgresBusMessage(payload: everyone.payload) == everyone)
        let event = StoredEvent(
            seq: 0, type: "typing", createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_123),
            json: #"{"from":"a|b"}"#)
        let live = PostgresBusMessage(origin: "xyz", content: .live(userId: 42, event: event))
        #expect(PostgresBusMessage(payload: live.payload) == live, "a | inside the JSON survives")
        let ended = PostgresBusMessage(origin: "o", content: .sessionsEnded(userId: 7))
        #expect(ended.payload == "s|o|7")
        #expect(PostgresBusMessage(payload: ended.payload) == ended)
        #expect(PostgresBusMessage(payload: "s|o|x") == nil)
    }

    @Test func oversizedWakeListsWakeEveryone() {
        let many = PostgresBusMessage(origin: "o", content: .wake(users: Array(1...5000)))
        #expect(many.payload == "w|o|*")
    }

    @Test func aBatchsEventsNotificationCarriesEachEventNumberedFromTheStreamHeads() throws {
        let at = Timestamp(millisecondsSince1970: 1_700_000_000_123)
        let messages: [PostgresBusMessage.NotifiedMessage] = [
            .init(sender: 1, recipient: 2, createdAt: at, json: #"{"text":"a|b","e":"é🙂"}"#),
            .init(sender: 2, recipient: 1, createdAt: at, json: #"{"text":"||"}"#),
            .init(sender: 1, recipient: 3, createdAt: at, json: "{}"),
        ]
        let prefix = try #require(
            PostgresBusMessage.appendedPayload(origin: "abc", type: "message.created", messages: messages))
        // chirp_send_batch appends each user's head before the batch.
        let parsed = try #require(PostgresBusMessage(payload: prefix + "1,2,3|10,20,0"))
        #expect(
            parsed
                == PostgresBusMessage(
                    origin: "abc",
                    content: .appended(type: "message.created", messages: messages, heads: [1: 10, 2: 20, 3: 0])))
        #expect(PostgresBusMessage(payload: parsed.payload) == parsed)
        let events = try #require(parsed.appendedEvents)
        #expect(
            events.map { [$0.userId, $0.event.seq] } == [[1, 11], [2, 21], [2, 22], [1, 12], [1, 13], [3, 1]])
        #expect(events.map(\.event.json) == messages.flatMap { [$0.json, $0.json] })
        #expect(events.allSatisfy { $0.event.type == "message.created" && $0.event.createdAt == at })
        #expect(PostgresBusMessage.payload(prefix, isFrom: "abc") && !PostgresBusMessage.payload(prefix, isFrom: "ab"))
        // A user without a head, or a JSON cut short, is not trusted.
        #expect(PostgresBusMessage(payload: prefix + "1,2|10,20") == nil)
        #expect(PostgresBusMessage(payload: prefix.replacingOccurrences(of: "{}", with: "{") + "1,2,3|10,20,0") == nil)
    }

    @Test func aBatchTooLargeForOneNotificationIsAWakeUp() {
        let text = String(repeating: "x", count: 1_000)
        let messages = (0..<8).map { _ in
            PostgresBusMessage.NotifiedMessage(sender: 1, recipient: 2, createdAt: .now(), json: text)
        }
        #expect(PostgresBusMessage.appendedPayload(origin: "o", type: "t", messages: Array(messages.prefix(7))) != nil)
        #expect(PostgresBusMessage.appendedPayload(origin: "o", type: "t", messages: messages) == nil)
    }

    @Test(arguments: [
        "", "w", "w|o", "w|o|", "w|o|x,y", "l|o|1|2|typing", "l|o|one|2|t|{}", "q|o|1",
        "e|o|t|1,2,3|{}|1,2|0,0", "e|o|t|1,2,3,2|{}|1,2|0", "e|o|t|1,2,3,9|{}|1,2|0,0", "e|o|t||{}|1|0",
    ])
    func malformedPayloadsAreIgnored(payload: String) {
        #expect(PostgresBusMessage(payload: payload) == nil)
    }
}
