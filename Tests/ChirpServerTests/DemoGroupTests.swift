import ChirpModels
import ChirpTestSupport
import Foundation
import NIOHTTP1
import Testing

/// `chirp demo` seeds a group of alice, bob and carol, in which bob the bot answers (issue 38):
/// run as `chirp demo --web` (no terminal needed), talked to as carol over the API.
@Suite("chirp demo: the group")
struct DemoGroupTests {
    @Test func theDemoGroupHoldsTheThreeAndBobAnswersInIt() async throws {
        try await withEmptyDirectory { temporary in
            let demo = try ChirpProcess(["demo", "--web"], environment: ["TMPDIR": temporary.path])
            #expect(
                try await demo.waitFor(timeout: .seconds(60)) { $0.contains("Ctrl-C stops the demo") }, "\(demo.output)"
            )
            let line = try #require(demo.lines.first { $0.contains("Open http://") }, "\(demo.output)")
            let port = try #require(
                line.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) }, "\(line)")
            let api = APIHarness(port: port)
            let login = try await api.send(
                .POST, "/v1/sessions", json: LoginRequest(username: "carol", password: "chirp-demo"))
            let auth: AuthResponse = try login.decode()
            let carol = Session(user: auth.user, token: auth.token)
            let list = try await api.send(.GET, "/v1/conversations", token: carol.token).decode(Page<Conversation>.self)
            let group = try #require(list.items.compactMap(\.group).first, "\(list.items)")
            #expect(group.title == "Demo team" && Set(group.members.map(\.user.username)) == ["alice", "bob", "carol"])
            let seeded = try await api.groupMessages(carol, group.id).decode(Page<Message>.self).items
            #expect(seeded.map(\.sender) == ["alice", "carol"], "the seeded talk: \(seeded)")
            #expect(try await api.sendToGroup(carol, group.id, "hello bob").status == 201)
            var answer: Message?
            for _ in 0..<100 where answer == nil {
                try await Task.sleep(for: .milliseconds(100))
                answer = try await api.groupMessages(carol, group.id).decode(Page<Message>.self).items.last {
                    $0.sender == "bob"
                }
            }
            #expect(
                answer?.text.contains("hello bob") == true, "bob answers in the group: \(String(describing: answer))")
            #expect(await demo.stop(signal: SIGINT))
        }
    }
}
