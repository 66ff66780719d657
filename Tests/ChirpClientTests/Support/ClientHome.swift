import ChirpClient
import ChirpModules
import ChirpNetworking
import ChirpTestSupport
import Foundation

/// One user's client directory for end-to-end tests: runs `chirp` commands against a server
/// with `--home` set, or opens the same files in process.
struct ClientHome {
    let directory = ServerProcess.temporaryDirectory()
    var server: URL

    init(server: URL) { self.server = server }

    /// Runs `chirp ARGUMENTS --home … --server …`.
    @discardableResult
    func chirp(_ arguments: String..., input: String? = nil) async throws -> (status: Int32, output: String) {
        try await runChirp(arguments + ["--home", directory.path, "--server", server.absoluteString], input: input)
    }

    /// Starts a long-running command such as `watch`.
    func start(_ arguments: String...) throws -> ChirpProcess {
        try ChirpProcess(arguments + ["--home", directory.path, "--server", server.absoluteString])
    }

    /// Registers `username` through the CLI.
    func register(_ username: String) async throws {
        let result = try await chirp("register", username, input: "password-\(username)\n")
        guard result.status == 0 else { throw ClientHomeError(description: "register \(username): \(result.output)") }
    }

    /// The logged-in user's session, opened in this process on the same files.
    func session() throws -> UserSession {
        try AccountManager(context: AppContext(root: directory), server: Server(baseURL: server)).currentSession()
    }
}

struct ClientHomeError: Error, CustomStringConvertible {
    var description: String
}
