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

    /// Registers `username` (password `password-USERNAME`) for a test's setup, in this process:
    /// the same `AccountManager.register` that `chirp register` runs, on the same files (token,
    /// database, this home's device), without starting a `chirp` process for it (each start of
    /// the debug binary cost about 0.1 s of CPU, and setups registered over a hundred users per
    /// run). `registerWithTheCLI` is the command itself.
    func register(_ username: String) async throws {
        do {
            _ = try await AccountManager(home: directory, serverURL: server)
                .register(username, password: "password-\(username)")
        } catch {
            throw ClientHomeError(description: "register \(username): \(error)")
        }
    }

    /// Registers `username` through `chirp register` (the password on standard input).
    func registerWithTheCLI(_ username: String) async throws {
        let result = try await chirp("register", username, input: "password-\(username)\n")
        guard result.status == 0 else { throw ClientHomeError(description: "register \(username): \(result.output)") }
        guard result.output.contains("registered and logged in as \(username)") else {
            throw ClientHomeError(description: "register \(username): \(result.output)")
        }
    }

    /// The logged-in user's session, opened in this process on the same files.
    func session() throws -> UserSession {
        try AccountManager(context: AppContext(root: directory), server: Server(baseURL: server)).currentSession()
    }
}

struct ClientHomeError: Error, CustomStringConvertible {
    var description: String
}
