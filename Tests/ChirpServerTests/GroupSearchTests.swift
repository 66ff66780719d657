import ChirpModels
import Foundation
import Testing

/// Search over group messages (API.md part 3: `GET /v1/search/messages?group=id`, and the
/// viewer's groups in every search), over real sockets on SQLite (and on PostgreSQL with
/// `CHIRP_TEST_DATABASE=postgres`).
@Suite("Group search")
struct GroupSearchTests {
    @Test func searchFindsTheGroupMessagesTheViewerSees() async throws {
        try await TestServer.run { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let team = try await api.group(alice, ["bob"], title: "Team")
            let other = try await api.group(alice, ["carol"], title: "Other")
            let early = try await api.sentToGroup(alice, team.id, "Café plans for Friday")
            _ = try await api.sentToGroup(alice, other.id, "friday plans elsewhere")
            #expect(try await api.sendMessage(alice, to: "bob", "direct friday plans").status == 201)
            let wrong = try await api.sentToGroup(bob, team.id, "no plans_here")
            #expect(try await api.found(bob, "FRIDAY plans") == ["direct friday plans", "Café plans for Friday"])
            let inTeam = try await api.search(bob, "friday", group: team.id)
            #expect(inTeam.status == 200)
            #expect(try inTeam.decode(Page<Message>.self).items.map(\.id) == [early.id])
            #expect(try await api.found(bob, "cafe") == ["Café plans for Friday"], "accents folded")
            #expect(try await api.found(bob, "plan") == [], "whole words")
            #expect(try await api.found(carol, "plans") == ["friday plans elsewhere"], "only the viewer's groups")
            #expect(try await api.search(carol, "plans", group: team.id).status == 404)
            #expect(try await api.search(bob, "plans", peer: "alice", group: team.id).status == 400)
            // Edits and unsends change what is found; a member added later finds from their joining.
            #expect(
                try await api.send(
                    .PATCH, "/v1/groups/\(team.id)/messages/\(early.id)", token: alice.token,
                    json: TextBody(text: "Saturday instead")
                ).status == 200)
            #expect(try await api.found(bob, "friday", group: team.id) == [])
            #expect(try await api.found(bob, "saturday") == ["Saturday instead"])
            #expect(
                try await api.send(.DELETE, "/v1/groups/\(team.id)/messages/\(wrong.id)", token: bob.token).status
                    == 204)
            #expect(try await api.found(bob, "here") == [])
            #expect(try await api.groupMember(alice, .PUT, team.id, "carol").status == 204)
            _ = try await api.sentToGroup(alice, team.id, "saturday it is")
            #expect(try await api.found(carol, "saturday") == ["saturday it is"])
        }
    }
}
