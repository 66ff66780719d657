import ArgumentParser

/// The `chirp` command: the server today; the client commands and the terminal app join it in
/// later issues.
@main
struct ChirpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chirp",
        abstract: "Chirp: direct messages and tweets, with a server you can run.",
        subcommands: [ServeCommand.self, OpenCommand.self, AdminCommand.self, LogsCommand.self, BenchCommand.self])
}
