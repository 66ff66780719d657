import ChirpClient
import ChirpModels
import ChirpModules
import ChirpNetworking
import Foundation

/// Fills a demo server: alice, bob and carol (password `chirp-demo`) following each other, a
/// conversation history, a group of the three (in which bob the bot answers too) and some
/// tweets.
struct DemoSeeder {
    static let password = "chirp-demo"
    static let groupTitle = "Demo team"
    let server: URL
    let homes: URL

    struct Seeded {
        /// alice's client directory, logged in.
        let alice: AccountManager
        /// bob's session (the bot's).
        let bob: UserSession
    }

    func seed() async throws -> Seeded {
        var managers: [String: AccountManager] = [:]
        var sessions: [String: UserSession] = [:]
        for (name, display) in [("alice", "Alice Liddell"), ("bob", "Bob the Bot"), ("carol", "Carol Danvers")] {
            let manager = AccountManager(
                context: try AppContext(root: homes.appendingPathComponent(name)), server: Server(baseURL: server))
            managers[name] = manager
            sessions[name] = try await manager.register(name, password: Self.password, displayName: display)
        }
        for (name, session) in sessions {
            for other in sessions.keys where other != name {
                _ = try await session.api.send(ChirpEndpoints.Follow(other))
            }
        }
        let history: [(String, String, String)] = [
            ("bob", "alice", "Hi Alice! I'm bob, the demo bot. Send me a message and I'll answer."),
            ("alice", "bob", "Hello bob 👋"),
            ("bob", "alice", "Try the timeline with t, and compose a tweet with c."),
            ("carol", "alice", "Lunch tomorrow? 🍜"),
            ("alice", "carol", "Yes! 12:30 at the usual place."),
            ("carol", "alice", "Great, see you there."),
        ]
        for (from, to, text) in history { _ = try await sessions[from]!.send(text, to: to) }
        let group = try await sessions["alice"]!.createGroup(Self.groupTitle, members: ["bob", "carol"])
        let talk: [(String, String)] = [
            ("alice", "Welcome to our group! bob answers here too."),
            ("carol", "Hi both 👋"),
        ]
        for (from, text) in talk { _ = try await sessions[from]!.send(text, to: ConversationKey.group(group.id)) }
        let tweets: [(String, String)] = [
            ("carol", "Trying out Chirp from a terminal. Surprisingly pleasant."),
            ("bob", "Beep boop. I answer direct messages, and tweet now and then. 🤖"),
            ("alice", "Down the rabbit hole with Swift on Linux."),
        ]
        for (from, text) in tweets { _ = try await sessions[from]!.tweet(text) }
        try await sessions["alice"]!.synchronize()
        return Seeded(alice: managers["alice"]!, bob: sessions["bob"]!)
    }
}
