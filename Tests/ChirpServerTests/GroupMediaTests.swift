import ChirpModels
import Foundation
import Testing

/// Media in group messages (API.md part 3): readable by the current members whose window holds the message, over
/// real sockets on SQLite (and on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group media")
struct GroupMediaTests {
    @Test func theGroupsCurrentMembersReadItsMedia() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol", "dave"])
            let (bob, carol, dave) = (members[0], members[1], members[2])
            let group = try await api.group(alice, ["bob", "carol"])
            let uploaded = try await api.putMedia(alice, "pic", MediaBytes.png, type: "image/png")
            #expect(uploaded.status == 201)
            let media: Media = try uploaded.decode()
            let sent = try await api.send(
                .PUT, "/v1/groups/\(group.id)/messages/with-pic", token: alice.token,
                json: SendMessageRequest(text: "", mediaIds: [media.id]))
            #expect(sent.status == 201)
            let message: Message = try sent.decode()
            #expect(message.media.map(\.id) == [media.id] && message.text.isEmpty)
            let again = try await api.send(
                .PUT, "/v1/groups/\(group.id)/messages/with-pic", token: alice.token,
                json: SendMessageRequest(text: "", mediaIds: [media.id]))
            #expect(again.status == 200)
            #expect(
                try await api.groupMessages(bob, group.id).decode(Page<Message>.self).items.first?.media.map(\.id) == [
                    media.id
                ])
            #expect(try await api.mediaBytes(bob, media.id) == MediaBytes.png)
            #expect(try await api.getMedia(dave, media.id).status == 404, "not a member")
            #expect(try await api.groupMember(alice, .PUT, group.id, "dave").status == 204)
            #expect(
                try await api.getMedia(dave, media.id).status == 404,
                "a member added after it was sent: not in his window")
            #expect(try await api.groupMember(alice, .DELETE, group.id, "carol").status == 204)
            #expect(try await api.getMedia(carol, media.id).status == 404, "a removed member no longer")
            let notMine = try await api.sendToGroup(bob, group.id, "steal")
            #expect(notMine.status == 201)
            let foreign = try await api.send(
                .PUT, "/v1/groups/\(group.id)/messages/foreign", token: bob.token,
                json: SendMessageRequest(text: "x", mediaIds: [media.id]))
            #expect(foreign.status == 422 || foreign.status == 404, "only one's own uploads attach: \(foreign.status)")
        }
    }
}
