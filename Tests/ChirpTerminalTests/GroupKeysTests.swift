import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Synchronization
import Testing

/// Groups in the terminal app: g opens the new-group form (members picked from the people
/// this user may message), Enter creates the group and opens it; Ctrl-G in a group lists its
/// members, where an admin gives the admin role and removes a member (asking first).
@MainActor
@Suite("Terminal app: groups")
struct GroupKeysTests {
    @Test func gOpensTheFormWhichCreatesTheGroupFromPickedMembersAndOpensIt() async {
        let backend = FakeBackend()
        let created = Mutex<[String]>([])
        var client = backend.client()
        client.createGroup = { title, members in
            created.withLock { $0.append("\(title): \(members.joined(separator: ","))") }
            return "g:7"
        }
        var state = AppFeatureTests.loggedIn()
        state.conversations = GroupFixtures.list().conversations
        backend.data.withLock { $0.conversations = state.conversations }
        let store = TestStore(initialState: state, reducer: AppFeature(client: client))
        await store.send(.key(.character("g"))) {
            $0.screen = .newGroup
            $0.newGroup.candidates = ["bob", "carol", "dave"]
        }
        await store.send(.key(.enter)) { $0.banner = .init("Type a title for the group first.", isError: true) }
        for character in "Hike" {
            await store.send(.key(.character(character))) {
                $0.banner = nil
                $0.newGroup.title.text.append(character)
            }
        }
        await store.send(.key(.enter)) {
            $0.banner = .init("Pick at least one member: Tab, then Space on a name.", isError: true)
        }
        await store.send(.key(.tab)) {
            $0.banner = nil
            $0.newGroup.choosingMembers = true
        }
        await store.send(.key(.down)) { $0.newGroup.selected = 1 }
        await store.send(.key(.character(" "))) { $0.newGroup.picked = ["carol"] }
        await store.send(.key(.up)) { $0.newGroup.selected = 0 }
        await store.send(.key(.character(" "))) { $0.newGroup.picked = ["carol", "bob"] }
        await store.send(.key(.enter)) { $0.busySince = Fixtures.start }
        await store.receive(.conversationsLoaded(state.conversations)) { $0.busySince = nil }
        await store.receive(.groupCreated("g:7")) {
            $0.busySince = Fixtures.start
            $0.peer = "g:7"
            $0.screen = .conversation
        }
        await store.receive(.messagesLoaded(peer: "g:7", messages: [], hasMore: false)) { $0.busySince = nil }
        #expect(created.withLock { $0 } == ["Hike: carol,bob"])
        await store.finish()
    }

    @Test func ctrlGListsTheMembersWhereAnAdminPromotesAndRemoves() async {
        let backend = FakeBackend()
        let changes = Mutex<[String]>([])
        var client = backend.client()
        let group = LocalGroup(GroupFixtures.group)
        client.group = { _, _ in group }
        client.changeGroup = { id, name, change in changes.withLock { $0.append("\(id) \(name) \(change)") } }
        var state = GroupFixtures.groupConversation()
        state.messages = []
        state.typing = [:]
        let store = TestStore(initialState: state, reducer: AppFeature(client: client))
        await store.send(.key(.control("x"))) {
            $0.banner = .init(
                "A group's members are blocked or reported one by one, from their own conversation.", isError: false)
        }
        await store.send(.key(.control("g"))) {
            $0.banner = nil
            $0.screen = .groupMembers
        }
        await store.receive(.groupLoaded(group)) { $0.group = group }
        await store.send(.key(.down)) { $0.selectedMember = 1 }
        await store.send(.key(.character("a")))
        await store.receive(.groupChanged("bob is an admin now.")) {
            $0.banner = .init("bob is an admin now.", isError: false)
        }
        await store.receive(.groupLoaded(group))
        await store.send(.key(.down)) {
            $0.banner = nil
            $0.selectedMember = 2
        }
        await store.send(.key(.character("x"))) { $0.confirmingRemoval = "carol" }
        await store.send(.key(.character("n"))) { $0.confirmingRemoval = nil }
        await store.send(.key(.character("x"))) { $0.confirmingRemoval = "carol" }
        await store.send(.key(.character("y"))) { $0.confirmingRemoval = nil }
        await store.receive(.groupChanged("Removed carol from the group.")) {
            $0.banner = .init("Removed carol from the group.", isError: false)
        }
        await store.receive(.groupLoaded(group))
        await store.send(.key(.character("+"))) {
            $0.banner = nil
            $0.newMember = TextInput(limit: 15)
        }
        for character in "dave" {
            await store.send(.key(.character(character))) { $0.newMember?.text.append(character) }
        }
        await store.send(.key(.enter)) { $0.newMember = nil }
        await store.receive(.groupChanged("Added dave to the group.")) {
            $0.banner = .init("Added dave to the group.", isError: false)
        }
        await store.receive(.groupLoaded(group))
        #expect(changes.withLock { $0 } == ["7 bob makeAdmin", "7 carol remove", "7 dave add"])
        await store.send(.key(.escape)) {
            $0.banner = nil
            $0.screen = .conversation
        }
        await store.receive(.messagesLoaded(peer: "g:7", messages: [], hasMore: false))
        await store.finish()
    }

    @Test func aGroupRequestIsAcceptedByItsTitleAndNotBlockedAsAUser() async {
        let backend = FakeBackend()
        let request = GroupFixtures.request().requests[0]
        backend.data.withLock { $0.requests = [request] }
        let store = TestStore(initialState: AppFeatureTests.loggedIn(), reducer: AppFeature(client: backend.client()))
        await store.send(.key(.character("R"))) {
            $0.screen = .requests
            $0.busySince = Fixtures.start
        }
        await store.receive(.requestsLoaded([request])) {
            $0.requests = [request]
            $0.busySince = nil
        }
        await store.send(.key(.character("x"))) {
            $0.banner = .init(
                "A group's members are blocked or reported one by one, from their own conversation.", isError: false)
        }
        await store.send(.key(.character("a"))) { $0.banner = nil }
        await store.receive(.answered("Lunch crew", accepted: true)) {
            $0.banner = .init("Accepted Lunch crew's request: the conversation is in your list.", isError: false)
        }
        await store.receive(.requestsLoaded([])) { $0.requests = [] }
        #expect(backend.data.withLock { $0.answers } == ["accept g:7"])
        await store.finish()
    }
}
