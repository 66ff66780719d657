import ChirpClient
import ChirpModels
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Synchronization
import Testing

/// A group with no message yet (issue 38): the server lists it with `lastMessage: null`; the
/// kit keeps the row, the list shows its title with no preview (not as a follower), and it may
/// be pinned and muted as any conversation.
@MainActor
@Suite("Terminal app: a group with no message yet")
struct EmptyGroupRowTests {
    /// The row the kit makes of the server's JSON for a group just created.
    static func row() throws -> ConversationSummary {
        let sent = Conversation(
            peer: Conversation.noPeer, lastMessage: nil, unreadCount: 0, kind: Conversation.groupKind,
            group: GroupFixtures.group)
        let json = try JSONEncoder().encode(sent)
        #expect(String(decoding: json, as: UTF8.self).contains(#""lastMessage":null"#))
        let received = try JSONDecoder().decode(Conversation.self, from: json)
        #expect(received.lastMessage == nil && received.group?.id == GroupFixtures.group.id)
        return ConversationSummary(received)
    }

    @Test func theListShowsItsTitleWithNoPreview() throws {
        let row = try Self.row()
        #expect(
            row.isGroup && !row.hasMessages && row.shownName == "Lunch crew" && row.unreadCount == 0
                && row.lastText.isEmpty)
        var state = AppFeatureTests.loggedIn()
        state.conversations = [row] + Fixtures.conversations
        let lines = AppView.render(state, width: 80, height: 24).text.split(separator: "\n")
        let line = try #require(lines.first { $0.contains("Lunch crew") })
        #expect(line.contains("no messages yet") && !line.contains("follows you"), "\(line)")
    }

    @Test func pAndMMarkIt() async throws {
        let backend = FakeBackend()
        let marks = Mutex<[String]>([])
        var client = backend.client()
        client.markConversation = { peer, mark in marks.withLock { $0.append("\(peer) \(mark)") } }
        var state = AppFeatureTests.loggedIn()
        state.conversations = [try Self.row()]
        let store = TestStore(initialState: state, reducer: AppFeature(client: client))
        await store.send(.key(.character("p")))
        await store.send(.key(.character("m")))
        await store.finish()
        #expect(
            marks.withLock { $0 } == [
                "\(state.conversations[0].peerName) pin", "\(state.conversations[0].peerName) mute",
            ])
    }
}
