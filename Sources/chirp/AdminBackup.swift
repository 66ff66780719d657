import ArgumentParser
import ChirpCommandSupport
import ChirpServer
import Foundation

/// `chirp admin backup DEST`: a consistent copy of a SQLite server's database and media,
/// taken while the server runs.
struct AdminBackup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a SQLite server's database and media while it runs.",
        discussion: """
            DEST holds chirp.sqlite (the latest backup's database) and media/ (the blobs, by \
            content). Back up into the same DEST again and only new blobs are copied. \
            PostgreSQL servers: see docs/operating.md (pg_dump and the media directory).
            """)

    @Argument(help: "The backup directory: empty, new, or one an earlier backup wrote.")
    var destination: String

    @OptionGroup var data: AdminDataDirectory

    func run() async throws {
        let report = try AdminDataDirectory.administering {
            try ServerAdministration.backup(
                configuration: data.configuration(), to: URL(fileURLWithPath: destination).standardizedFileURL)
        }
        printLine(report.description)
    }
}

/// `chirp admin restore SRC`: puts a backup back into a stopped server's data directory.
struct AdminRestore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Check a backup and put it into the data directory of a stopped SQLite server.",
        discussion: """
            The backup is checked first (PRAGMA integrity_check, every media row's name and blob); a \
            failed check changes nothing. The database that was in the data directory is moved to \
            before-restore-<time>/ beside it.
            """)

    @Argument(help: "A directory `chirp admin backup` wrote.")
    var source: String

    @OptionGroup var data: AdminDataDirectory

    func run() async throws {
        let report = try AdminDataDirectory.administering {
            try ServerAdministration.restore(
                from: URL(fileURLWithPath: source).standardizedFileURL, configuration: data.configuration())
        }
        printLine(report.description)
    }
}

/// The data of a SQLite server, for the admin commands that work on its files.
struct AdminDataDirectory: ParsableArguments {
    @Option(help: "The server's data directory (SQLite).")
    var dataDir = "./chirp-data"

    @Option(
        help: ArgumentHelp("The server's media directory, if it is not media/ in the data directory.", valueName: "dir")
    )
    var mediaDir: String?

    func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = URL(fileURLWithPath: dataDir).standardizedFileURL
        configuration.mediaDirectory = mediaDir.map { URL(fileURLWithPath: $0).standardizedFileURL }
        return configuration
    }

    /// Runs `body`; its `AdministrationError` becomes a one-line failure of the command.
    static func administering<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as AdministrationError {
            throw ValidationError(error.description)
        }
    }
}
