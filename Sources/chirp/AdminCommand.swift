import ArgumentParser
import ChirpCommandSupport
import ChirpServer
import Foundation

/// `chirp admin`: operator tasks on a server's data.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Operator tasks on a server's data.",
        subcommands: [
            AdminLogs.self, AdminReports.self, AdminResolve.self, AdminSuspend.self, AdminUnsuspend.self,
            AdminRemoveMessage.self,
            AdminAudit.self, AdminStats.self, AdminGrant.self, AdminRevoke.self, AdminBackup.self, AdminRestore.self,
        ])
}

/// `chirp admin logs`: the error reports clients uploaded.
struct AdminLogs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs", abstract: "Print the log entries clients reported.")

    @OptionGroup var database: AdminDatabaseOptions

    @Option(help: "Least severe level shown: debug, info, warning, error or fatal.")
    var level = "debug"

    @Option(help: "Newest entries shown at most.")
    var limit = 1000

    func validate() throws {
        guard ["debug", "info", "warning", "error", "fatal"].contains(level) else {
            throw ValidationError("--level takes debug, info, warning, error or fatal.")
        }
    }

    func run() async throws {
        let configuration = try database.configuration()
        do {
            let entries = try await ServerAdministration.clientLogs(
                configuration: configuration, minimumLevel: level, limit: limit)
            for entry in entries { printLine(ServerAdministration.line(for: entry)) }
        } catch let error as AdministrationError {
            throw ValidationError(error.description)
        }
    }
}

/// The server database an admin command reads: `--data-dir` (SQLite) or `--database` /
/// `$CHIRP_DATABASE_URL` (PostgreSQL).
enum AdminDatabase {
    static func configuration(dataDir: String, database: String?) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = URL(fileURLWithPath: dataDir).standardizedFileURL
        if let url = database ?? EnvironmentVariable.value("CHIRP_DATABASE_URL"), !url.isEmpty {
            do { configuration.postgres = try PostgresSettings(url: url) } catch {
                throw ValidationError("--database: \(error)")
            }
        }
        return configuration
    }
}
