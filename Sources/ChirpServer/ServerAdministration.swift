import ChirpModels
import Foundation

/// Operator tasks on a server's data directory (`chirp admin …`), without running the server.
public enum ServerAdministration {
    /// The newest client log entries at or above `minimumLevel`, oldest first.
    public static func clientLogs(dataDirectory: URL, minimumLevel: String = "debug", limit: Int = 1000) async throws -> [ClientLogEntry] {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        guard FileManager.default.fileExists(atPath: configuration.databaseURL.path) else {
            throw AdministrationError("no Chirp database at \(configuration.databaseURL.path); pass the --data-dir the server uses")
        }
        let storage = try SQLiteStorage(url: configuration.databaseURL)
        return try await storage.clientLogs(minimumSeverity: LogRecord.levels.firstIndex(of: minimumLevel) ?? 0, limit: limit)
    }

    /// One printed line for a client log entry.
    public static func line(for entry: ClientLogEntry) -> String {
        var line = "\(entry.loggedAt.rfc3339) \(entry.level.uppercased()) \(entry.username ?? "?")"
        if let source = entry.source { line += " [\(source)]" }
        line += " \(entry.message)"
        for (key, value) in (entry.metadata ?? [:]).sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        return line
    }
}

/// A failure of an administration task, with what to do about it.
public struct AdministrationError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
