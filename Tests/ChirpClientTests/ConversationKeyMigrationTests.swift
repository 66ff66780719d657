import ChirpModels
import ChirpPersistence
import Foundation
import Testing

@testable import ChirpClient

/// The client database's `v9-one-conversation-key`: a group's rows written as `group:ID` by an
/// earlier kit are found under `g:ID` afterwards, direct ones stay as they were, and typed keys
/// of either spelling name the same group.
@Suite("One conversation key")
struct ConversationKeyMigrationTests {
    @Test func aDatabaseWithTheFormerGroupKeysIsMovedToTheOneSpelling() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-keys-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let before = Array(ClientDatabase.migrations.dropLast(ClientDatabase.conversationKeyMigrations.count))
        do {
            // What a kit before v9 stored for group 5 and for bob.
            let store = try SQLiteStore(path: url.path, migrations: before)
            let at = Timestamp(millisecondsSince1970: 0)
            var inGroup = LocalMessage(
                pendingFrom: "alice", to: "", clientMessageId: "c1", text: "hi all", order: 1, at: at)
            inGroup.peer = "group:5"
            let direct = LocalMessage(
                pendingFrom: "alice", to: "Bob", clientMessageId: "c2", text: "hi", order: 2, at: at)
            try await SQLiteRepository<LocalMessage>(store: store).save([inGroup, direct])
            try await SQLiteRepository<ConversationSummary>(store: store).save([
                ConversationSummary(
                    id: "group:5", peerName: "group:5", peerDisplayName: "Team", lastSender: "", lastText: "",
                    lastOrder: 0, lastAt: "", unreadCount: 2, pinOrder: 1),
                ConversationSummary(
                    id: "bob", peerName: "bob", peerDisplayName: "Bob", lastSender: "", lastText: "", lastOrder: 0,
                    lastAt: "", unreadCount: 0),
            ])
        }
        let database = try ClientDatabase(url: url)
        #expect(try database.store.appliedMigrations().last == "v9-one-conversation-key")
        let messages = try await database.messages.fetch(RecordQuery())
        #expect(Set(messages.map(\.peer)) == ["g:5", "bob"])
        let group = try #require(try await database.conversations.fetch(id: "g:5"))
        #expect(group.peerName == "g:5" && group.groupId == "5" && group.pinOrder == 1 && group.unreadCount == 2)
        #expect(try await database.conversations.fetch(id: "group:5") == nil)
        #expect(try await database.conversations.fetch(id: "bob")?.peerName == "bob")
    }

    @Test func typedKeysOfEitherSpellingNameTheSameGroup() {
        #expect(ConversationKey.typed("group:12") == "g:12" && ConversationKey.typed("g:12") == "g:12")
        #expect(ConversationKey.typed("carol") == "carol" && ConversationKey.groupId(of: "carol") == nil)
        #expect(ConversationID.group("12").rawValue == ConversationKey.group("12"), "the envelope's id, too")
    }
}
