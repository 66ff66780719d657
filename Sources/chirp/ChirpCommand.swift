import ArgumentParser
import ChirpBench
import Foundation

/// The `chirp` command: the server, the client commands, and tools.
@main
struct ChirpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chirp",
        abstract: "Chirp: direct messages and tweets, with a server you can run.",
        subcommands: [
            AppCommand.self, DemoCommand.self, ServeCommand.self,
            RegisterCommand.self, LoginCommand.self, LogoutCommand.self, WhoAmICommand.self,
            FollowCommand.self, UnfollowCommand.self, FollowersCommand.self, FollowingCommand.self,
            BlockCommand.self, UnblockCommand.self, BlocksCommand.self, ReportCommand.self,
            PinCommand.self, UnpinCommand.self, MuteCommand.self, UnmuteCommand.self, GroupCommand.self,
            RequestsCommand.self, AcceptCommand.self, DeclineCommand.self, SettingsCommand.self,
            SendCommand.self, MessagesCommand.self, ConversationsCommand.self, RetryCommand.self, MediaCommand.self,
            ReactCommand.self, EditCommand.self, UnsendCommand.self, SearchCommand.self,
            TweetCommand.self, TimelineCommand.self, SyncCommand.self, WatchCommand.self,
            OpenCommand.self, AdminCommand.self, LogsCommand.self, BenchCommand.self,
            SessionsCommand.self, PasswordCommand.self, DeleteAccountCommand.self, ExportCommand.self,
            EncryptCommand.self, DevicesCommand.self, SafetyNumberCommand.self,
        ],
        defaultSubcommand: AppCommand.self)

    /// Runs the command, then lets a client run report what it logged (`ClientProcess`).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            await ClientProcess.finish()
        } catch {
            await ClientProcess.finish()
            exit(withError: error)
        }
    }
}
