import ChirpModels
import Foundation
import Testing

@Suite("Wire format")
struct WireFormatTests {
    @Test func eventsRoundTripEveryType() throws {
        let at = Timestamp(millisecondsSince1970: 1_795_342_530_123)
        let user = User(
            id: "1", username: "alice", displayName: "Alice", createdAt: at, followersCount: 1, followingCount: 2)
        let message = Message(
            id: "7", clientMessageId: "c", sender: "alice", recipient: "bob", text: "hi", createdAt: at,
            readByRecipient: false)
        let payloads: [EventPayload] = [
            .messageCreated(message),
            .messageRead(ReadReceipt(reader: "bob", peer: "alice", upTo: "7")),
            .typing(TypingNotice(from: "alice")),
            .followCreated(FollowNotice(follower: user)),
            .tweetCreated(Tweet(id: "3", clientTweetId: "t", author: user, text: "tweet", createdAt: at)),
        ]
        for (index, payload) in payloads.enumerated() {
            let event = Event(seq: payload.type == "typing" ? nil : Int64(index + 1), createdAt: at, payload: payload)
            let data = try JSONEncoder().encode(event)
            #expect(try JSONDecoder().decode(Event.self, from: data) == event)
        }
        let typing = String(
            decoding: try JSONEncoder().encode(
                Event(seq: nil, createdAt: at, payload: .typing(TypingNotice(from: "a")))), as: UTF8.self)
        #expect(typing.contains(#""seq":null"#))
        let unknown = try JSONDecoder().decode(
            Event.self,
            from: Data(#"{"seq":9,"type":"future.thing","createdAt":"2026-11-22T10:15:30.123Z","data":{}}"#.utf8))
        #expect(unknown.payload == .unknown(type: "future.thing") && unknown.seq == 9)
    }

    @Test func pagesEncodeAnExplicitNullCursor() throws {
        let json = String(
            decoding: try JSONEncoder().encode(Page<String>(items: ["a"], nextCursor: nil)), as: UTF8.self)
        #expect(json.contains(#""nextCursor":null"#))
    }

    @Test func routesBuildEncodedPaths() {
        #expect(
            APIRoute.sendMessage.path(["username": "bob", "clientMessageId": "a b/c"])
                == "/v1/conversations/bob/messages/a%20b%2Fc")
        #expect(APIRoute.follow.description == "PUT /v1/users/{username}/follow")
        #expect(
            APIRoute.all.filter { !$0.requiresAuth }.map(\.template).sorted() == [
                "/healthz", "/metrics", "/openapi.yaml", "/v1/accounts", "/v1/push/key", "/v1/sessions",
            ])
        #expect(Set(APIRoute.all).count == APIRoute.all.count)
    }
}
