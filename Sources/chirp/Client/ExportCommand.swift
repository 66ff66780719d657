import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import Foundation

/// `chirp export FILE`: asks the server for an archive of the logged-in user's data (profile,
/// follows, blocks, tweets, conversations, messages, media) and downloads it to FILE, a tar file.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Download an archive of your data (a tar file: JSON and your media) to FILE.")

    @Argument(help: "Where to write the archive (replaced if it exists).") var file: String
    @Option(help: "How many seconds to wait for the server to prepare the archive.") var wait: Int = 300
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let destination = URL(fileURLWithPath: file)
        let wait = self.wait
        _ = try await ClientRuntime(client).withConnectedSession { session in
            try await session.exportData(to: destination, waiting: .seconds(max(wait, 1)))
        }
        let size =
            (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value ?? 0
        printLine("exported your data to \(destination.path) (\(size) bytes)")
    }
}
