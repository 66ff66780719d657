import ArgumentParser
import ChirpCommandSupport
import ChirpServer
import Foundation

/// `chirp admin grant USER`: makes a user one of the server's operators.
struct AdminGrant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Make a user one of the server's operators (they may use chirp admin reports, suspend, …).")

    @Argument(help: "The user.") var username: String
    @OptionGroup var database: AdminDatabaseOptions

    func run() async throws {
        try await AdminRole.set(username, true, database)
    }
}

/// `chirp admin revoke USER`: a user is no longer an operator.
struct AdminRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Make an operator an ordinary user again.")

    @Argument(help: "The user.") var username: String
    @OptionGroup var database: AdminDatabaseOptions

    func run() async throws {
        try await AdminRole.set(username, false, database)
    }
}

/// Grants and revokes the operator role in the server's database.
enum AdminRole {
    static func set(_ username: String, _ isOperator: Bool, _ options: AdminDatabaseOptions) async throws {
        let configuration = try options.configuration()
        do {
            let changed = try await ServerAdministration.setOperator(
                configuration: configuration, username: username, isOperator)
            switch (isOperator, changed) {
            case (true, true): printLine("\(username) is now an operator")
            case (true, false): printLine("\(username) was already an operator")
            case (false, true): printLine("\(username) is no longer an operator")
            case (false, false): printLine("\(username) was not an operator")
            }
        } catch let error as AdministrationError {
            throw ValidationError(error.description)
        }
    }
}

/// `--data-dir` and `--database`: the server database an admin command works on.
struct AdminDatabaseOptions: ParsableArguments {
    @Option(help: "The server's data directory (SQLite).")
    var dataDir = "./chirp-data"

    @Option(
        help: ArgumentHelp(
            "The server's PostgreSQL database URL, if it uses one; default: $CHIRP_DATABASE_URL.", valueName: "url"))
    var database: String?

    func configuration() throws -> ServerConfiguration {
        try AdminDatabase.configuration(dataDir: dataDir, database: database)
    }
}
