import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpLogging
import ChirpModels
import ChirpModules
import ChirpNetworking
import Foundation
import Logging

/// `chirp logs`: the client's error reports.
struct LogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs", abstract: "The error reports this client keeps for the server.",
        subcommands: [LogsUpload.self, LogsEmit.self])
}

/// `chirp logs upload`: send what waits on disk now.
struct LogsUpload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload", abstract: "Upload the error reports waiting in HOME/logs.")

    @OptionGroup var client: ClientOptions

    func run() async throws {
        let stored = try? AppContext(root: URL(fileURLWithPath: client.home)).currentUser?.token()
        guard let token = client.sessionToken ?? stored else {
            throw ValidationError("not logged in: run chirp login USER (or pass --token)")
        }
        let api = ChirpAPIClient(baseURL: try client.serverURL, token: token)
        let diagnostics = try ClientDiagnostics(directory: client.logsDirectory, api: api, consoleLevel: nil)
        let before = diagnostics.reporter.statistics.onDisk
        do {
            try await diagnostics.reporter.uploadNow(maxConsecutiveFailures: 4)
        } catch let error as RemoteLogUploadError {
            throw ValidationError(
                TerminalText.escaped("\(error.description). Is the server at \(client.server) running?"))
        }
        printLine("uploaded \(before) waiting entries in \(diagnostics.reporter.statistics.uploadedBatches) batches")
    }
}

/// `chirp logs emit`: logs entries through the client's logging, for crash tests (hidden).
struct LogsEmit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit", abstract: "Log test entries through the client's logging.", shouldDisplay: false)

    @OptionGroup var client: ClientOptions

    @Option(help: "Error entries to log.")
    var errors = 10

    @Option(help: "Log a fatal entry after every this many errors.")
    var fatalEvery = 5

    @Option(help: "Entries kept in memory before they go to disk.")
    var maxMemory = 20

    @Option(help: "Entries on disk that trigger an upload.")
    var waterline = 100

    @Flag(help: "After logging, print 'logged' and wait to be killed.")
    var hang = false

    @Flag(
        help: "Log through the product's diagnostics (what every client run starts), without flushing before 'logged'.")
    var product = false

    @Flag(help: "After logging, crash with an invalid memory access (SIGSEGV).")
    var crash = false

    func run() async throws {
        if product {
            try await runAsProduct()
            return
        }
        let api = ChirpAPIClient(baseURL: try client.serverURL, token: client.sessionToken)
        let diagnostics = try ClientDiagnostics(
            directory: client.logsDirectory, api: api,
            strategy: CountPersistenceStrategy(maxMemoryCount: maxMemory, waterline: waterline), consoleLevel: nil)
        diagnostics.start()
        let logger = Logger(label: "chirp.emit")
        for index in 0..<errors {
            logger.error("error \(index)", metadata: ["index": "\(index)"])
            if (index + 1) % fatalEvery == 0 { logger.critical("fatal after error \(index)") }
        }
        diagnostics.logs.flush()
        FileHandle.standardOutput.write(Data("logged\n".utf8))  // unbuffered: a test waits for it
        if hang { while true { try await Task.sleep(for: .seconds(3600)) } }
        await diagnostics.reporter.waitForUploads()
    }

    /// The product's path: `ClientProcess` diagnostics; entries must reach the disk on their
    /// own before the process is killed or crashes.
    private func runAsProduct() async throws {
        let context = try AppContext(root: URL(fileURLWithPath: client.home))
        guard
            ClientProcess.diagnostics(context: context, server: Server(baseURL: try client.serverURL), console: .none)
                != nil
        else {
            throw CommandFailure("cannot use \(client.logsDirectory.path) for error reports")
        }
        let logger = Logger(label: "chirp.emit")
        for index in 0..<errors { logger.error("error \(index)", metadata: ["index": "\(index)"]) }
        FileHandle.standardOutput.write(Data("logged\n".utf8))
        if crash {
            UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
        }
        if hang { while true { try await Task.sleep(for: .seconds(3600)) } }
    }
}
