import ArgumentParser
import ChirpModels
import ChirpServer
import Foundation

/// `chirp admin reports`: the reports users filed, with the reported message as it was.
struct AdminReports: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports", abstract: "Print the reports users filed (oldest first), with the reported message as it was.")

    @Option(help: "The server's data directory (SQLite).")
    var dataDir = "./chirp-data"

    @Option(help: ArgumentHelp("The server's PostgreSQL database URL, if it uses one; default: $CHIRP_DATABASE_URL.", valueName: "url"))
    var database: String?

    @Option(help: ArgumentHelp("Only reports filed at or after TIME: RFC 3339 (2026-11-22T10:15:30Z) or an age such as 90m, 24h, 7d.", valueName: "time"))
    var since: String?

    func run() async throws {
        let configuration = try AdminDatabase.configuration(dataDir: dataDir, database: database)
        let from = try since.map { try Self.parse($0) } ?? Timestamp(millisecondsSince1970: 0)
        do {
            for report in try await ServerAdministration.reports(configuration: configuration, since: from) {
                print(ServerAdministration.line(for: report))
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
