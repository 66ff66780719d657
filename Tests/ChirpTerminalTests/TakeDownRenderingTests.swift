import ChirpClient
import ChirpTerminal
import Testing

/// A message the operators took down (issue 39) shows as "removed by the operators", in its
/// row and where a reply quotes it; one its sender unsent still shows "message unsent".
@Suite("Rendering: taken-down messages")
struct TakeDownRenderingTests {
    @Test func aTakenDownMessageSaysTheOperatorsRemovedIt() {
        var state = MessageActionFixtures.conversation()
        state.messages[2].replyTo = state.messages[0].serverId
        state.messages[0].deleted = true
        state.messages[0].removedByOperators = true
        state.messages[0].text = ""
        let frame = AppView.render(state, width: 120, height: 40).text
        #expect(frame.contains("  removed by the operators"), "\(frame)")
        #expect(frame.contains("↪ bob: removed by the operators"), "\(frame)")
        #expect(frame.contains("  message unsent"), "the sender's own unsend keeps its note: \(frame)")
    }
}
