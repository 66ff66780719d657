import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp register USER`: creates an account and logs in as it.
struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create an account and log in (password from a prompt, or one line on stdin).")

    @Argument(help: "Username: 3–15 letters, digits or underscores.") var username: String
    @Option(help: "Name shown to others (default: the username).") var displayName: String?
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let runtime = try ClientRuntime(client)
        let password = try PasswordReader.read()
        let session = try await runtime.run {
            try await runtime.manager.register(username, password: password, displayName: displayName)
        }
        printLine("registered and logged in as \(session.username)")
    }
}

/// `chirp login USER`.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in (password from a prompt, or one line on stdin).")

    @Argument(help: "Your username.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let runtime = try ClientRuntime(client)
        let password = try PasswordReader.read()
        let session = try await runtime.run { try await runtime.manager.login(username, password: password) }
        let pending = try await session.pendingMessages().count
        printLine(
            "logged in as \(session.username)"
                + (pending > 0 ? " (\(pending) queued messages: chirp sync sends them)" : ""))
    }
}

/// `chirp logout`: revokes the session and wipes this user's local data.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Log out: the token stops working and this user's local data is deleted.")

    @Flag(help: "Log out even though queued messages have not reached the server (they are deleted).")
    var discardQueued = false
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let runtime = try ClientRuntime(client)
        if let session = try? runtime.manager.currentSession() {
            // What the user typed must not vanish with the local data: send it first.
            _ = try? await session.drainOutbox()
            let queued = try await session.pendingMessages().count
            if queued > 0, !discardQueued {
                throw CommandFailure(
                    "\(queued) queued message(s) have not reached the server: run chirp sync when it can be reached, or chirp logout --discard-queued"
                )
            }
        }
        let (username, revoked) = try await runtime.run { try await runtime.manager.logout() }
        printLine(
            "logged out \(username); local data deleted"
                + (revoked ? "" : " (the server could not be reached: the token expires on its own)"))
    }
}

/// `chirp whoami`.
struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who is logged in.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (_, me) = try await ClientRuntime(client).withConnectedSession { session in try await session.me() }
        try output.emit(me) {
            ["\(me.username) (\(me.displayName)) · \(me.followersCount) followers · following \(me.followingCount)"]
        }
    }
}
