@testable import ChirpServer
import ChirpModels
import Foundation
import Testing

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
}
