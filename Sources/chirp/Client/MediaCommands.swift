import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp media get ID [-o PATH]`: downloads an attachment of a stored message.
struct MediaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media", abstract: "Attachments of your messages.", subcommands: [MediaGetCommand.self])
}

struct MediaGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Download an attachment (its id is shown by chirp messages USER).")

    @Argument(help: "The media id.") var id: String
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write it (default: its name in the current directory).", valueName: "path"))
    var output: String?
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let (_, saved) = try await ClientRuntime(client).withConnectedSession { session -> URL in
            guard let media = try await session.knownMedia(id: id) else {
                throw CommandFailure(
                    "no attachment \(id) in your stored messages: run chirp messages USER first to fetch the conversation"
                )
            }
            // An encrypted attachment's name travels in its envelope, not on the server.
            let sealedName = try await session.mediaKey(for: id)?.name
            let name = (sealedName ?? media.filename ?? "media-\(media.id)").replacingOccurrences(of: "/", with: "_")
            let destination = URL(fileURLWithPath: output ?? name).standardizedFileURL
            let progress = TransferProgress.show(session.mediaTransfers())
            defer { progress.cancel() }
            return try await session.download(media, to: destination)
        }
        printLine("saved \(saved.path)")
    }
}

/// Prints transfer progress on standard error: a redrawn bar on a terminal, a plain line per
/// quarter otherwise. Its own carriage returns redraw the bar; what it quotes is escaped.
enum TransferProgress {
    static func show(_ transfers: AsyncStream<MediaTransfer>) -> Task<Void, Never> {
        let tty = isatty(STDERR_FILENO) == 1
        return Task {
            var lastQuarter: [MediaTransfer.Subject: Int] = [:]
            for await transfer in transfers {
                let label: String
                switch transfer.subject {
                case .upload(_, let index, _): label = "upload \(index + 1)"
                case .download(let id): label = "download \(TerminalText.escaped(id))"
                }
                let fraction = transfer.fraction ?? 0
                let done = "\(ByteCount.text(transfer.bytesDone))/\(transfer.total.map(ByteCount.text) ?? "?")"
                switch transfer.state {
                case .running:
                    if tty {
                        let filled = Int(fraction * 30)
                        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
                        FileHandle.standardError.write(
                            Data("\r\(label) [\(bar)] \(Int(fraction * 100))% \(done)   ".utf8))
                    } else {
                        let quarter = Int(fraction * 4)
                        if quarter > lastQuarter[transfer.subject, default: -1] {
                            lastQuarter[transfer.subject] = quarter
                            FileHandle.standardError.write(Data("\(label): \(Int(fraction * 100))% \(done)\n".utf8))
                        }
                    }
                case .finished:
                    FileHandle.standardError.write(
                        Data(
                            "\(tty ? "\r" : "")\(label): done \(done)\(tty ? String(repeating: " ", count: 30) : "")\n"
                                .utf8))
                case .failed(let reason):
                    FileHandle.standardError.write(
                        Data("\(tty ? "\r" : "")\(label): stopped (\(TerminalText.escaped(reason)))\n".utf8))
                }
            }
        }
    }
}

/// Byte counts for people: 512 B, 3.4 KiB, 25.0 MiB.
enum ByteCount {
    static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        if bytes < 1024 * 1024 * 1024 { return String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        return String(format: "%.2f GiB", Double(bytes) / 1_073_741_824)
    }
}
