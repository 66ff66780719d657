import ChirpClient
import ChirpModels
import Foundation

/// bob in the demo: answers every direct message and every message in his groups (showing
/// "typing" first), and tweets now and then.
struct DemoBot {
    let session: UserSession

    static let tweets = [
        "Did you know? Every Chirp message is stored on the sender's device before it is sent.",
        "Chirp fact: each user's events have gap-free sequence numbers, so reconnecting loses nothing.",
        "Beep. Still here. Send me a message!",
    ]

    /// Applies what happened before the demo started, which needs no answer. Await it before
    /// saying the demo is ready: a message that arrived during it would count as history and
    /// get no answer (a test that wrote at once waited 10 s for one in vain).
    func catchUp() async {
        _ = try? await session.sync.catchUp()
    }

    /// Answers what arrives after `catchUp`, and tweets now and then, until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await session.sync.run(onEvent: { event in
                    guard case .messageCreated(let message) = event.payload,
                        message.sender.lowercased() != session.username.lowercased()
                    else { return }
                    if let group = message.group {
                        await reply(to: message, inGroup: group)
                    } else if message.recipient.lowercased() == session.username.lowercased() {
                        await reply(to: message)
                    }
                })
            }
            group.addTask {
                var index = 0
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(45))
                    if Task.isCancelled { break }
                    _ = try? await session.tweet(Self.tweets[index % Self.tweets.count])
                    index += 1
                }
            }
        }
    }

    private func reply(to message: Message) async {
        await answer(in: message.sender, Self.answer(to: message))
    }

    /// The same answer in a group, to everyone in it, naming who it answers.
    private func reply(to message: Message, inGroup group: String) async {
        await answer(in: ConversationKey.group(group), "@\(message.sender) " + Self.answer(to: message))
    }

    /// "Typing" in the conversation (`peer`: a username, or a group's key), then `text`
    /// through the outbox, then the conversation marked read.
    private func answer(in peer: String, _ text: String) async {
        _ = try? await session.api.send(ChirpEndpoints.Typing(to: peer))
        try? await Task.sleep(for: .milliseconds(700))
        _ = try? await session.send(text, to: peer)
        try? await session.markRead(peer)
    }

    static func answer(to message: Message) -> String {
        let quoted = message.text.count > 60 ? String(message.text.prefix(57)) + "…" : message.text
        return "🤖 You said “\(quoted)”. Nice! (I'm a bot.)"
    }
}
