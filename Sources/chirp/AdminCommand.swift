import ArgumentParser
import ChirpServer
import Foundation

/// `chirp admin`: operator tasks on a server's data directory.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Operator tasks on a server's data directory.", subcommands: [AdminLogs.self])
}

/// `chirp admin logs`: the error reports clients uploaded.
struct AdminLogs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logs", abstract: "Print the log entries clients reported.")

    @Option(help: "The server's data directory.")
    var dataDir = "./chirp-data"

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
        do {
            let entries = try await ServerAdministration.clientLogs(
                dataDirectory: URL(fileURLWithPath: dataDir).standardizedFileURL, minimumLevel: level, limit: limit)
            for entry in entries { print(ServerAdministration.line(for: entry)) }
        } catch let error as AdministrationError {
            throw ValidationError(error.description)
        }
    }
}
