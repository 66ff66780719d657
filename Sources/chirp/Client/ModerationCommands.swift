import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp admin resolve ID --action none|suspend|remove-message`.
struct AdminResolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve a report (as an operator): none, suspend the reported user, or remove the reported message.")

    @Argument(help: "The report's id (chirp admin reports shows it).") var id: String
    @Option(help: ArgumentHelp("What to do: none, suspend or remove-message.", valueName: "action")) var action:
        ModerationAction
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let report = try await ClientRuntime(client).withConnectedSession { session in
            try await session.resolveReport(id, action: action)
        }.value
        printLine("resolved report \(report.id) (\(action.rawValue))")
    }
}

/// `chirp admin suspend USER`.
struct AdminSuspend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suspend",
        abstract: "Suspend an account (as an operator): its sessions end on every instance and it cannot log in.")

    @Argument(help: "The account.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await Self.set(username, suspended: true, client)
    }

    /// Suspends `username` or lifts it, and says so.
    static func set(_ username: String, suspended: Bool, _ client: ClientOptions) async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in
            try await session.setSuspended(username, suspended)
        }
        printLine("\(suspended ? "suspended" : "unsuspended") \(username)")
    }
}

/// `chirp admin unsuspend USER`.
struct AdminUnsuspend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsuspend", abstract: "Lift an account's suspension (as an operator).")

    @Argument(help: "The account.") var username: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await AdminSuspend.set(username, suspended: false, client)
    }
}

/// `chirp admin remove-message ID`.
struct AdminRemoveMessage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-message",
        abstract: "Take a message down (as an operator): both people see \"removed by the operators\".")

    @Argument(help: "The message's id.") var messageId: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        _ = try await ClientRuntime(client).withConnectedSession { session in try await session.removeMessage(messageId)
        }
        printLine("removed message \(messageId)")
    }
}

/// `chirp admin audit`: operator actions, newest first.
struct AdminAudit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Print the operators' actions, newest first (as an operator).")

    @OptionGroup var limit: PageLimitOptions
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let page = try await ClientRuntime(client).withConnectedSession { session in
            try await session.auditLog(limit: limit.limit)
        }.value
        try output.emit(page.items) {
            page.items.map { entry in
                var line =
                    "\(entry.createdAt.rfc3339) \(entry.operator ?? "(command line)") \(entry.action) \(entry.target)"
                if let detail = entry.detail { line += " (\(detail))" }
                return line
            }
        }
    }
}

/// `chirp admin stats`: the server's figures.
struct AdminStats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Print the server's figures (as an operator).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let figures = try await ClientRuntime(client).withConnectedSession { session in
            try await session.serverFigures()
        }.value
        try output.emit(figures) {
            [
                "users \(figures.users) (suspended \(figures.suspendedUsers))", "messages \(figures.messages)",
                "open reports \(figures.openReports)", "storage bytes \(figures.storageBytes)",
                "media bytes \(figures.mediaBytes)",
            ]
        }
    }
}

extension ModerationAction: ExpressibleByArgument {}
