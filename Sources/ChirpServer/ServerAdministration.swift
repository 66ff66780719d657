import ChirpModels
import Foundation
import Logging

/// Operator tasks on a server's data (`chirp admin …`), without running the server.
public enum ServerAdministration {
    /// The newest client log entries at or above `minimumLevel`, oldest first, from the SQLite
    /// database in `dataDirectory`.
    public static func clientLogs(dataDirectory: URL, minimumLevel: String = "debug", limit: Int = 1000) async throws
        -> [ClientLogEntry]
    {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        return try await clientLogs(configuration: configuration, minimumLevel: minimumLevel, limit: limit)
    }

    /// The newest client log entries at or above `minimumLevel`, oldest first, from the
    /// database `configuration` names (PostgreSQL or SQLite).
    public static func clientLogs(configuration: ServerConfiguration, minimumLevel: String = "debug", limit: Int = 1000)
        async throws -> [ClientLogEntry]
    {
        let severity = LogRecord.levels.firstIndex(of: minimumLevel) ?? 0
        return try await read(configuration) { try await $0.clientLogs(minimumSeverity: severity, limit: limit) }
    }

    /// Reports filed at or after `since`, oldest first (at most `limit`), from the database
    /// `configuration` names (PostgreSQL or SQLite).
    public static func reports(configuration: ServerConfiguration, since: Timestamp, limit: Int = 10_000) async throws
        -> [ReportRecord]
    {
        try await read(configuration) { try await $0.reports(since: since, limit: limit) }
    }

    /// Runs `body` on the storage `configuration` names, opened for this one read: a
    /// PostgreSQL pool that runs only while `body` does, or the data directory's SQLite file
    /// (which must exist: an operator's wrong `--data-dir` is not a new empty database).
    static func read<Value: Sendable>(
        _ configuration: ServerConfiguration, _ body: @escaping @Sendable (any ChirpStorage) async throws -> Value
    ) async throws -> Value {
        if let postgres = configuration.postgres {
            return try await PostgresStorage.withOpened(settings: postgres, logger: Logger(label: "chirp.admin")) {
                try await body($0)
            }
        }
        guard FileManager.default.fileExists(atPath: configuration.databaseURL.path) else {
            throw AdministrationError(
                "no Chirp database at \(configuration.databaseURL.path); pass the --data-dir the server uses")
        }
        return try await body(try SQLiteStorage(url: configuration.databaseURL))
    }

    /// One printed line for a report: when, who reported whom and why, the note, and the
    /// reported message as it was when reported. What users wrote is quoted (`TerminalText`).
    public static func line(for report: ReportRecord) -> String {
        var line =
            "\(report.createdAt.rfc3339) #\(report.id) \(report.reporter) reported \(report.reported) for \(report.reason)"
        if let note = report.note, !note.isEmpty { line += " note=\(TerminalText.quoted(note))" }
        if let messageId = report.messageId {
            line +=
                " message=\(messageId) from=\(report.messageSender ?? "?") text=\(TerminalText.quoted(report.messageText ?? ""))"
            if !report.messageMediaIds.isEmpty { line += " media=\(report.messageMediaIds.joined(separator: ","))" }
        }
        return TerminalText.escaped(line)
    }

    /// One printed line for a client log entry. Everything in it came from a client, so it is
    /// escaped (`TerminalText`): a message holding a line break or a terminal's escape
    /// sequence shows them as `\u{A}` or `\u{1B}`, and cannot pass for the lines after it.
    public static func line(for entry: ClientLogEntry) -> String {
        var line = "\(entry.loggedAt.rfc3339) \(entry.level.uppercased()) \(entry.username ?? "?")"
        if let source = entry.source { line += " [\(source)]" }
        line += " \(entry.message)"
        for (key, value) in (entry.metadata ?? [:]).sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        return TerminalText.escaped(line)
    }
}

/// A failure of an administration task, with what to do about it.
public struct AdministrationError: Error, CustomStringConvertible {
    public var description: String
    /// `description` may name what it found in the data: it is escaped (`TerminalText`).
    init(_ description: String) { self.description = TerminalText.escaped(description) }
}
