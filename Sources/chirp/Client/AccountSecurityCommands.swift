import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import ChirpNetworking
import Foundation

/// `chirp sessions [--end ID]`: lists the logged-in user's sessions (the current one marked
/// `*`), or ends one of them.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "List your sessions (* is this one), or end one with --end ID.")

    @Option(help: "End the session with this id: its token stops working at once.") var end: String?
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let runtime = try ClientRuntime(client)
        if let end {
            _ = try await runtime.withConnectedSession { session in try await session.endSession(end) }
            printLine("ended session \(end)")
            return
        }
        let (_, sessions) = try await runtime.withConnectedSession { session in try await session.sessions() }
        try output.emit(sessions) { Self.table(sessions) }
    }

    /// One line per session under a header: current mark, id, created, last used, user agent.
    static func table(_ sessions: [SessionSummary]) -> [String] {
        let header = ["", "ID", "CREATED", "LAST USED", "USER AGENT"]
        let rows = sessions.map { session in
            [
                session.current ? "*" : "", session.id, session.createdAt.rfc3339, session.lastUsedAt.rfc3339,
                session.userAgent ?? "-",
            ]
        }
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}

/// `chirp password`: changes the password (every other session ends).
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract:
            "Change your password; your other sessions end (current and new password from prompts, or two lines on stdin)."
    )

    @OptionGroup var client: ClientOptions

    func run() async throws {
        let runtime = try ClientRuntime(client)
        let current = try PasswordReader.read(prompt: "Current password: ")
        let new = try PasswordReader.read(prompt: "New password: ")
        if PasswordReader.isInteractive, try PasswordReader.read(prompt: "New password again: ") != new {
            throw CommandFailure("the new passwords differ: nothing changed")
        }
        _ = try await runtime.withConnectedSession { session in
            try await session.changePassword(current: current, new: new)
        }
        printLine("password changed; your other sessions have ended")
    }
}

/// `chirp delete-account`: deletes the account on the server, then this user's local data.
struct DeleteAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account",
        abstract:
            "Delete your account for good (password from a prompt, or one line on stdin) and this user's local data.")

    @OptionGroup var client: ClientOptions

    func run() async throws {
        let runtime = try ClientRuntime(client)
        let session = try await runtime.session()
        if PasswordReader.isInteractive {
            printLine(
                "This deletes \(session.username) for good: messages you sent become tombstones, tweets and follows go."
            )
        }
        let password = try PasswordReader.read(prompt: "Password for \(session.username): ")
        let username = try await runtime.run(username: session.username) {
            try await runtime.manager.deleteAccount(password: password)
        }
        printLine("deleted the account \(username); local data deleted")
    }
}
