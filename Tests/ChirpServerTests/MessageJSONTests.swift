import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// The hand-built message JSON a send stores and answers with.
@Suite("Message JSON")
struct MessageJSONTests {
    static func message(text: String, sender: String = "alice") -> Message {
        Message(
            id: "42", clientMessageId: "c-1", sender: sender, recipient: "bob", text: text,
            createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_123), readByRecipient: false)
    }

    @Test(arguments: [
        "plain text", #"quotes " and \ backslashes"#, "lines\nand\ttabs\r\u{8}\u{C}", "control \u{1} \u{1F}",
        "unicode é ü 中文 🙂 and a / slash", "", "\u{2028}\u{2029}",
        "a long plain line of more than fifteen bytes \u{7F}", "a long line whose last byte needs escaping\"",
    ])
    func decodesBackToTheSameMessage(_ text: String) throws {
        let original = Self.message(text: text)
        let json = MessageJSON.encode(original)
        #expect(try JSONDecoder().decode(Message.self, from: Data(json.utf8)) == original, "\(json)")
    }

    @Test func isWhatTheAPIEncoderWritesForOrdinaryText() throws {
        let original = Self.message(text: "see you at 5/6, \"the usual\" place\n")
        let foundation = String(decoding: try APIJSON.encoder().encode(original), as: UTF8.self)
        #expect(MessageJSON.encode(original) == foundation)
    }

    @Test func writesThePartTwoFieldsAsTheAPIEncoderDoes() throws {
        var original = Self.message(text: "with \"everything\"")
        original.media = [
            Media(
                id: "7", clientMediaId: "m-1", contentType: "image/png", size: 1234,
                sha256: String(repeating: "a", count: 64),
                filename: "cat \"1\".png", createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_000)),
            Media(
                id: "8", clientMediaId: "m-2", contentType: "application/pdf", size: 0,
                sha256: String(repeating: "b", count: 64),
                filename: nil, createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_001)),
        ]
        original.replyTo = "41"
        original.reactions = [
            MessageReaction(emoji: "👍", users: ["bob", "alice"]), MessageReaction(emoji: "❤️", users: ["bob"]),
        ]
        original.editedAt = Timestamp(millisecondsSince1970: 1_790_000_000_999)
        let foundation = String(decoding: try APIJSON.encoder().encode(original), as: UTF8.self)
        #expect(MessageJSON.encode(original) == foundation)
        #expect(try JSONDecoder().decode(Message.self, from: Data(MessageJSON.encode(original).utf8)) == original)
    }

    @Test func writesAbsentOptionalFieldsAsNull() {
        let json = MessageJSON.encode(Self.message(text: "plain"))
        #expect(json.contains(#""replyTo":null"#) && json.contains(#""editedAt":null"#))
        #expect(json.contains(#""media":[]"#) && json.contains(#""reactions":[]"#))
    }
}
