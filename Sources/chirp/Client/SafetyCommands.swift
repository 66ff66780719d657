import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp block USER`.
struct BlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract:
            "Block someone: follows between you end, they cannot follow or message you, their tweets and your conversation leave your lists."
    )

    @Argument(help: "Who to block.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in try await session.block(username) }
        printLine("blocked \(username)")
    }
}

/// `chirp unblock USER`.
struct UnblockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unblock", abstract: "Unblock someone (your conversation and their tweets come back).")

    @Argument(help: "Who to unblock.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in try await session.unblock(username) }
        printLine("unblocked \(username)")
    }
}

/// `chirp blocks`: whom you blocked, newest first.
struct BlocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "blocks", abstract: "Who you blocked, newest first.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let page = try await ClientRuntime(client).withConnectedSession { session in try await session.blocks() }.value
        try output.emit(page.items) {
            page.items.isEmpty ? ["you have blocked nobody"] : page.items.map { "\($0.username) (\($0.displayName))" }
        }
    }
}

/// `chirp report USER [--message ID] --reason spam|abuse|other [--note TEXT]`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report someone (and one of their messages) to the server's operators.")

    @Argument(help: "Who to report.") var username: String
    @Option(
        help: ArgumentHelp(
            "A message of your conversation with them (its id, as `chirp messages --json` shows).", valueName: "id"))
    var message: String?
    @Option(help: ArgumentHelp("Why: spam, abuse or other.", valueName: "reason")) var reason: ReportReason
    @Option(help: ArgumentHelp("What the operators should know (at most 1,000 characters).", valueName: "text"))
    var note: String?
    @OptionGroup var client: ClientOptions

    func validate() throws {
        if let note, note.unicodeScalars.count > Validation.reportNoteLength.upperBound {
            throw ValidationError("--note takes at most 1,000 characters")
        }
    }

    func run() async throws {
        let (_, id) = try await ClientRuntime(client).withConnectedSession { session in
            try await session.report(username, messageId: message, reason: reason, note: note)
        }
        printLine("reported \(username) (report \(id))")
    }
}

extension ReportReason: ExpressibleByArgument {}
