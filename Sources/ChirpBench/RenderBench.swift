import ArgumentParser
import ChirpClient
import ChirpModels
import ChirpTerminal
import Foundation

/// `chirp bench render`: how long one frame of the conversation screen takes to render (and
/// to diff against the previous one) with a long conversation loaded.
struct RenderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Measure frame rendering of a long conversation (median of many frames).")

    @Option(help: "Messages in the conversation.") var messages = 10_000
    @Option(help: "Frames to render.") var frames = 100
    @Option(help: "Terminal width.") var width = 120
    @Option(help: "Terminal height.") var height = 40

    func run() async throws {
        var state = AppState(now: .now)
        state.username = "alice"
        state.connection = "live"
        state.screen = .conversation
        state.peer = "bob"
        state.messages = (1...messages).map { index in
            let mine = index % 2 == 0
            var message = LocalMessage(
                Message(
                    id: String(index), clientMessageId: "c\(index)", sender: mine ? "alice" : "bob",
                    recipient: mine ? "bob" : "alice",
                    text:
                        "Message number \(index): a line long enough to wrap on a narrow terminal, with an emoji 🐦 and 你好.",
                    createdAt: Timestamp(millisecondsSince1970: 1_795_330_800_000 + Int64(index) * 1000),
                    readByRecipient: true),
                viewer: "alice")
            message.state = mine ? .read : .received
            return message
        }
        var render: [Double] = []
        var diff: [Double] = []
        var previous: Frame?
        for index in 0..<frames {
            state.scroll = index % 20  // scrolling, so consecutive frames differ
            let start = ContinuousClock.now
            let frame = AppView.render(state, width: width, height: height)
            let rendered = ContinuousClock.now
            _ = FrameDiff.ansi(from: previous, to: frame)
            render.append((rendered - start).seconds)
            diff.append((ContinuousClock.now - rendered).seconds)
            previous = frame
        }
        let r = LatencySummary(latencies: render, seconds: 1)
        let d = LatencySummary(latencies: diff, seconds: 1)
        print("conversation of \(messages) messages at \(width)×\(height), \(frames) frames")
        print(String(format: "  render  median %.3f ms   p99 %.3f ms", r.percentile(0.5), r.percentile(0.99)))
        print(String(format: "  diff    median %.3f ms   p99 %.3f ms", d.percentile(0.5), d.percentile(0.99)))
    }
}
