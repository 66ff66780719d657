import ChirpModels
import Testing

@testable import ChirpServer

/// The JSON the message actions hand storage (`MessageChangeJSON`), byte for byte as API.md's
/// events and the stored reactions column have it.
@Suite("Message change JSON")
struct MessageChangeJSONTests {
    @Test func deletedNamesATakeDownOnly() throws {
        let message = MessageJSONTests.message(text: "gone")
        #expect(
            try MessageChangeJSON().deleted(message.tombstone()) == #"{"id":"42","recipient":"bob","sender":"alice"}"#)
        #expect(
            try MessageChangeJSON().deleted(message.tombstone(byOperators: true))
                == #"{"id":"42","recipient":"bob","removedByOperators":true,"sender":"alice"}"#)
    }

    @Test func updatedIsTheMessageAsASendWritesIt() {
        let message = MessageJSONTests.message(text: "edited")
        #expect(MessageChangeJSON().updated(message) == MessageJSON.encode(message))
    }

    @Test func reactionsColumnIsTheAPIArrayAndNullForNone() {
        let column = MessageChangeJSON().reactionsColumn([MessageReaction(emoji: "👍", users: ["bob", "alice"])])
        #expect(column == #"[{"count":2,"emoji":"👍","users":["bob","alice"]}]"#)
        #expect(ReactionsColumn.decode(column) == [MessageReaction(emoji: "👍", users: ["bob", "alice"])])
        #expect(MessageChangeJSON().reactionsColumn([]) == nil)
    }
}
