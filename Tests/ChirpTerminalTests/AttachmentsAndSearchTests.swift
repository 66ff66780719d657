import ChirpClient
import ChirpModels
import ChirpStore
import ChirpStoreTesting
import ChirpTerminal
import Foundation
import Synchronization
import Testing

/// Attaching files (a path prompt), their upload progress, saving a message's attachment, and
/// the search screen that opens a conversation at a result.
@MainActor
@Suite("Terminal app: attachments and search")
struct AttachmentsAndSearchTests {
    nonisolated static func pdf(_ path: String) -> AttachmentFile {
        AttachmentFile(url: URL(fileURLWithPath: path), contentType: "application/pdf", size: 2048)
    }

    /// Types `text` at a prompt, asserting the prompt after each key.
    static func type(
        _ text: String, into store: TestStore<AppState, AppFeature.Action>,
        prompt: @escaping (String) -> AppState.MessagePrompt
    ) async {
        var typed = ""
        for character in text {
            typed.append(character)
            let now = typed
            await store.send(.key(.character(character))) { $0.messagePrompt = prompt(now) }
        }
    }

    @Test func ctrlAAttachesFilesByPathAndTheyGoWithTheNextMessage() async {
        let backend = FakeBackend()
        var client = backend.client()
        client.inspectFile = { path in
            guard path == "/tmp/menu.pdf" else { throw AttachmentError.missing }
            return Self.pdf(path)
        }
        var state = MessageActionFixtures.conversation()
        state.messages = []
        let store = TestStore(initialState: state, reducer: AppFeature(client: client))
        // A path that is not there: the banner says so, nothing is attached.
        await store.send(.key(.control("a"))) { $0.messagePrompt = .attachPath(TextInput()) }
        await store.send(.key(.character("x"))) { $0.messagePrompt = .attachPath(TextInput(text: "x")) }
        await store.send(.key(.enter)) {
            $0.messagePrompt = nil
            $0.banner = .init(
                "Cannot attach x: there is no such file (check the path; ~ is your home folder)", isError: true)
        }
        await store.send(.key(.control("a"))) {
            $0.messagePrompt = .attachPath(TextInput())
            $0.banner = nil
        }
        await Self.type("/tmp/menu.pdf", into: store) { .attachPath(TextInput(text: $0)) }
        await store.send(.key(.enter)) {
            $0.messagePrompt = nil
            $0.attachments = [Self.pdf("/tmp/menu.pdf")]
        }
        let frame = AppView.render(store.state, width: 80, height: 24).text
        #expect(frame.contains("📎 menu.pdf · application/pdf · 2 KB"), "the file shows over the input:\n\(frame)")
        // Backspace on an empty input drops it again; attached once more, Enter sends it alone.
        await store.send(.key(.backspace)) { $0.attachments = [] }
        await store.send(.key(.control("a"))) { $0.messagePrompt = .attachPath(TextInput()) }
        await Self.type("/tmp/menu.pdf", into: store) { .attachPath(TextInput(text: $0)) }
        await store.send(.key(.enter)) {
            $0.messagePrompt = nil
            $0.attachments = [Self.pdf("/tmp/menu.pdf")]
        }
        await store.send(.key(.enter)) { $0.attachments = [] }
        await store.receive(.sent)
        await store.receive(.messagesLoaded(peer: "bob", messages: [], hasMore: false))
        await store.finish()
        #expect(
            backend.data.withLock { $0.outgoing } == [
                AppClient.Outgoing(text: "", attachments: [URL(fileURLWithPath: "/tmp/menu.pdf")])
            ])
    }

    @Test func aFileIsInspectedForItsNameTypeAndSize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("Photo.PNG")
        try Data(count: 3000).write(to: photo)
        let file = try AttachmentFile.inspect(path: photo.path)
        #expect(file.summary == "Photo.PNG · image/png · 3 KB")
        #expect(throws: AttachmentError.notAFile) { try AttachmentFile.inspect(path: folder.path) }
        #expect(throws: AttachmentError.missing) {
            try AttachmentFile.inspect(path: folder.appendingPathComponent("nope").path)
        }
        #expect(AttachmentFile.size(999) == "999 B" && AttachmentFile.size(1_572_864) == "1.5 MB")
    }

    @Test func uploadProgressShowsUntilTheUploadCompletes() async {
        let store = TestStore(
            initialState: MessageActionFixtures.conversation(), reducer: AppFeature(client: FakeBackend().client()))
        let started = TransferProgress(id: "cm1", filename: "photo.png", sent: 0, total: 1000)
        await store.send(.sync(.transfer(started))) { $0.transfers = [started] }
        let midway = TransferProgress(id: "cm1", filename: "photo.png", sent: 420, total: 1000)
        await store.send(.sync(.transfer(midway))) { $0.transfers = [midway] }
        let frame = AppView.render(store.state, width: 80, height: 24).text
        #expect(frame.contains("↑ photo.png 42 %"), "the progress shows in the conversation:\n\(frame)")
        await store.send(.sync(.transfer(TransferProgress(id: "cm1", filename: "photo.png", sent: 1000, total: 1000))))
        { $0.transfers = [] }
        await store.finish()
    }

    @Test func oSavesTheSelectedMessagesAttachmentAndSaysWhere() async {
        let backend = FakeBackend()
        let requested = Mutex<[String]>([])
        var client = backend.client()
        client.download = { media, destination in
            requested.withLock { $0.append("\(media.id) → \(destination?.path ?? "cache")") }
            return (destination ?? URL(fileURLWithPath: "/cache")).appendingPathComponent(media.filename ?? media.id)
        }
        let store = TestStore(initialState: MessageActionFixtures.conversation(), reducer: AppFeature(client: client))
        let photoMessage = MessageActionFixtures.history[5].id
        await store.send(.key(.up)) { $0.selectedMessage = photoMessage }
        await store.send(.key(.character("o"))) { $0.messagePrompt = .savePath(messageId: photoMessage, TextInput()) }
        await store.send(.key(.enter)) {
            $0.messagePrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.saved(filename: "photo.png", to: "/cache/photo.png")) {
            $0.busySince = nil
            $0.banner = .init("Saved photo.png to /cache/photo.png", isError: false)
        }
        // Into a folder typed at the prompt.
        await store.send(.key(.character("o"))) {
            $0.messagePrompt = .savePath(messageId: photoMessage, TextInput())
            $0.banner = nil
        }
        await Self.type("/tmp", into: store) { .savePath(messageId: photoMessage, TextInput(text: $0)) }
        await store.send(.key(.enter)) {
            $0.messagePrompt = nil
            $0.busySince = Fixtures.start
        }
        await store.receive(.saved(filename: "photo.png", to: "/tmp/photo.png")) {
            $0.busySince = nil
            $0.banner = .init("Saved photo.png to /tmp/photo.png", isError: false)
        }
        // A message without attachment says so.
        await store.send(.key(.up)) {
            $0.selectedMessage = MessageActionFixtures.history[4].id
            $0.banner = nil
        }
        await store.send(.key(.character("o"))) { $0.banner = .init("This message has no attachment.", isError: false) }
        await store.finish()
        #expect(requested.withLock { $0 } == ["m1 → cache", "m1 → /tmp"])
    }

    @Test func slashSearchesAndEnterOpensTheConversationAtTheResult() async {
        let backend = FakeBackend()
        // The result is older than the first page: the app loads pages until it is there.
        let all = (1...40).map {
            Fixtures.message(
                $0, from: $0 % 2 == 0 ? "alice" : "bob", to: $0 % 2 == 0 ? "bob" : "alice", "m\($0)", state: .received)
        }
        backend.data.withLock { $0.messages = all }
        let queries = Mutex<[String]>([])
        var client = backend.client()
        let results = [
            MessageActionFixtures.message(3, from: "bob", to: "alice", "m3"),
            MessageActionFixtures.message(1, from: "carol", to: "alice", "m1"),
        ]
        client.search = { query, peer in
            queries.withLock { $0.append("\(query) in \(peer ?? "all")") }
            return results
        }
        var state = MessageActionFixtures.loggedIn(.conversations)
        state.conversations = Fixtures.conversations
        let store = TestStore(initialState: state, reducer: AppFeature(client: client))
        await store.send(.key(.character("/"))) {
            $0.returnTo = .conversations
            $0.screen = .search
        }
        for character in "m3" {
            await store.send(.key(.character(character))) { $0.search.input.text.append(character) }
        }
        await store.send(.key(.enter)) { $0.search.isSearching = true }
        await store.receive(.search(.loaded(query: "m3", results: results))) {
            $0.search.isSearching = false
            $0.search.searchedFor = "m3"
            $0.search.results = results
        }
        let frame = AppView.render(store.state, width: 80, height: 24).text
        #expect(frame.contains("▸ bob") && frame.contains("carol"), "the results list their peers:\n\(frame)")
        await store.send(.key(.down)) { $0.search.selected = 1 }
        await store.send(.key(.up)) { $0.search.selected = 0 }
        await store.send(.key(.enter))
        await store.receive(.search(.delegate(.open(peer: "bob", messageId: "bob/c3")))) {
            $0.screen = .conversation
            $0.peer = "bob"
            $0.busySince = Fixtures.start
            $0.pendingSelection = "bob/c3"
        }
        await store.receive(.messagesLoaded(peer: "bob", messages: Array(all.suffix(30)), hasMore: true)) {
            $0.messages = Array(all.suffix(30))
            $0.hasOlderMessages = true
            $0.messageLimit = 60
        }
        await store.receive(.messagesLoaded(peer: "bob", messages: all, hasMore: false)) {
            $0.messages = all
            $0.hasOlderMessages = false
            $0.busySince = nil
            $0.selectedMessage = "bob/c3"
            $0.pendingSelection = nil
        }
        await store.finish()
        #expect(queries.withLock { $0 } == ["m3 in all"])
    }

    @Test func searchFromAConversationSearchesItAndTabWidensIt() async {
        let backend = FakeBackend()
        let queries = Mutex<[String]>([])
        var client = backend.client()
        client.search = { query, peer in
            queries.withLock { $0.append("\(query) in \(peer ?? "all")") }
            return []
        }
        let store = TestStore(initialState: MessageActionFixtures.conversation(), reducer: AppFeature(client: client))
        await store.send(.key(.character("/"))) {
            $0.returnTo = .conversation
            $0.screen = .search
            $0.search = SearchFeature.State(openedFrom: "bob")
        }
        await store.send(.key(.character("x"))) { $0.search.input.text = "x" }
        await store.send(.key(.enter)) { $0.search.isSearching = true }
        await store.receive(.search(.loaded(query: "x", results: []))) {
            $0.search.isSearching = false
            $0.search.searchedFor = "x"
        }
        #expect(AppView.render(store.state, width: 80, height: 24).text.contains("No message holds every word of “x”."))
        await store.send(.key(.tab)) {
            $0.search.peer = nil
            $0.search.searchedFor = nil
        }
        await store.send(.key(.enter)) { $0.search.isSearching = true }
        await store.receive(.search(.loaded(query: "x", results: []))) {
            $0.search.isSearching = false
            $0.search.searchedFor = "x"
        }
        await store.send(.key(.escape))
        await store.receive(.search(.delegate(.close))) { $0.screen = .conversation }
        await store.finish()
        #expect(queries.withLock { $0 } == ["x in bob", "x in all"])
        // With text in the input, / is a character of the message.
        await store.send(.key(.character("a"))) { $0.draft.text = "a" }
        await store.send(.key(.character("/"))) { $0.draft.text = "a/" }
        await store.finish()
    }
}
