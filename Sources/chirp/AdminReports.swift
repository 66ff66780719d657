import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import ChirpServer
import Foundation

/// `chirp admin reports`: the reports queue, through the server as a logged-in operator; with
/// `--data-dir` or `--database`, read from the server's database directly instead (no server
/// or login needed, every report since `--since`, oldest first).
struct AdminReports: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports",
        abstract: "Print the reports users filed, with the reported message as it was.",
        discussion: """
            By default asks the server (you must be logged in as an operator): the open reports, \
            newest first, or the resolved ones with --resolved. With --data-dir or --database it reads \
            the server's database directly instead: every report, oldest first (--since limits it).
            """)

    @Flag(help: "The resolved reports instead of the open ones (through the server).")
    var resolved = false

    @Option(help: "Read this SQLite data directory directly instead of asking the server.")
    var dataDir: String?

    @Option(
        help: ArgumentHelp("Read this PostgreSQL database directly instead of asking the server.", valueName: "url"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "Only reports filed at or after TIME: RFC 3339 (2026-11-22T10:15:30Z) or an age such as 90m, 24h, 7d.",
            valueName: "time"))
    var since: String?

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let from = try since.map { try Self.parse($0) } ?? Timestamp(millisecondsSince1970: 0)
        if dataDir != nil || database != nil {
            try await readDatabase(since: from)
            return
        }
        let page = try await ClientRuntime(client).withConnectedSession { session in
            try await session.moderationReports(resolved: resolved)
        }.value
        let reports = page.items.filter { $0.createdAt >= from }
        try output.emit(reports) {
            reports.isEmpty ? ["no \(resolved ? "resolved" : "open") reports"] : reports.map(\.line)
        }
    }

    private func readDatabase(since from: Timestamp) async throws {
        let configuration = try AdminDatabase.configuration(dataDir: dataDir ?? "./chirp-data", database: database)
        do {
            for report in try await ServerAdministration.reports(configuration: configuration, since: from) {
                printLine(ServerAdministration.line(for: report))
            }
        } catch let error as AdministrationError {
            throw ValidationError(error.description)
        }
    }

    /// An RFC 3339 time, or an age (`90m`, `24h`, `7d`) before now.
    static func parse(_ text: String, now: Timestamp = .now()) throws -> Timestamp {
        if let time = Timestamp(rfc3339: text) { return time }
        if let seconds = DurationShorthand.seconds(text) {
            return Timestamp(millisecondsSince1970: now.millisecondsSince1970 - seconds * 1000)
        }
        throw ValidationError("--since takes an RFC 3339 time (2026-11-22T10:15:30Z) or an age such as 90m, 24h or 7d.")
    }
}

extension ModerationReport {
    /// One printed line: id, time, who reported whom and why, the note, the message as it was,
    /// whether the account is suspended, and the resolution. What users wrote is quoted
    /// (`TerminalText`).
    var line: String {
        var line = "#\(id) \(createdAt.rfc3339) \(reporter) reported \(reported) for \(reason)"
        if reportedSuspended { line += " [\(reported) suspended]" }
        if let note, !note.isEmpty { line += " note=\(Self.quoted(note))" }
        if let message {
            line += " message=\(message.id) from=\(message.sender) text=\(Self.quoted(message.text))"
            if !message.mediaIds.isEmpty { line += " media=\(message.mediaIds.joined(separator: ","))" }
        }
        if let action, let resolvedBy, let resolvedAt {
            line += " resolved=\(action) by=\(resolvedBy) at=\(resolvedAt.rfc3339)"
        }
        return line
    }

    private static func quoted(_ text: String) -> String { TerminalText.quoted(text) }
}
