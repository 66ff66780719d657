import ChirpClient
import ChirpModels
import Foundation
import Testing

/// Which arriving events raise a notification (`MessageNotices`), as the server decides its
/// pushes, and the push payload `chirp watch --notify --json` prints.
@Suite("Message notices")
struct MessageNoticesTests {
    static func created(_ sender: String, to recipient: String = "ann", group: String? = nil, deleted: Bool = false)
        -> Event
    {
        Event(
            seq: 1, createdAt: .now(),
            payload: .messageCreated(
                Message(
                    id: "7", clientMessageId: "c", sender: sender, recipient: group == nil ? recipient : "",
                    text: "hello", createdAt: .now(), readByRecipient: false, deleted: deleted, group: group)))
    }

    @Test func aMessageFromSomeoneElseNotifiesUnlessItsConversationIsMuted() {
        let notices = MessageNotices(viewer: "Ann")
        #expect(
            notices.notification(for: Self.created("Bob"), muted: [])
                == PushNotification(conversation: .direct("Bob"), sender: "Bob", messageId: "7", text: "hello"))
        #expect(notices.notification(for: Self.created("Bob"), muted: ["bob"]) == nil, "muted, by its key")
        #expect(
            notices.notification(for: Self.created("bob", group: "5"), muted: [])?.conversation == .group("5"))
        #expect(notices.notification(for: Self.created("bob", group: "5"), muted: ["g:5"]) == nil)
        #expect(notices.notification(for: Self.created("ann", to: "bob"), muted: []) == nil, "one's own message")
        #expect(notices.notification(for: Self.created("bob", deleted: true), muted: []) == nil)
        let typing = Event(seq: nil, createdAt: .now(), payload: .typing(TypingNotice(from: "bob")))
        #expect(notices.notification(for: typing, muted: []) == nil)
    }

    @Test func aPayloadWritesTextNullWhenThereIsNone() throws {
        let payload = PushNotification(conversation: .group("5"), sender: "bob", messageId: "7", text: nil)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(payload)) as? [String: Any]
        #expect(object?["text"] is NSNull)
        #expect(object?["type"] as? String == "message")
        #expect((object?["conversation"] as? [String: String]) == ["kind": "group", "group": "5"])
    }
}
