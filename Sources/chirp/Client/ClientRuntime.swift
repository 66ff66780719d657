import ArgumentParser
import ChirpClient
import ChirpModules
import ChirpNetworking
import Foundation

/// A client command's failure, printed as one line (`Error: …`) with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What every client command shares: the account manager for `--home` and `--server`, the
/// session (from `--token`, else the stored one), the outbox flush that runs before any other
/// work with the server, and errors that say what to do.
struct ClientRuntime {
    let options: ClientOptions
    let manager: AccountManager

    init(_ options: ClientOptions) throws {
        self.options = options
        manager = try AccountManager(home: URL(fileURLWithPath: options.home), serverURL: try options.serverURL)
    }

    /// The logged-in session, without touching the network (unless `--token` must be adopted).
    func session() async throws -> UserSession {
        do {
            if let token = options.sessionToken { return try await manager.adopt(token: token) }
            return try manager.currentSession()
        } catch {
            throw explain(error)
        }
    }

    /// The session with its outbox sent: what a command that reaches the server starts with.
    /// Fails (with the reason) when the server cannot be reached.
    func connectedSession() async throws -> UserSession {
        let session = try await session()
        do {
            let report = try await session.drainOutbox()
            if report.stillPending > 0, let blocked = report.blockedBy { throw blocked }
            for failed in report.failed {
                printError("message to \(failed.recipient) failed: \(failed.failure ?? "refused") (chirp retry \(failed.id))")
            }
        } catch {
            throw explain(error, username: session.username)
        }
        return session
    }

    /// The session with its outbox sent, then `body` on it; every error explained for that user.
    func withConnectedSession<T>(_ body: (UserSession) async throws -> T) async throws -> (session: UserSession, value: T) {
        let session = try await connectedSession()
        return (session, try await run(username: session.username) { try await body(session) })
    }

    /// The session (outbox not sent), then `body` on it; every error explained for that user.
    func withSession<T>(_ body: (UserSession) async throws -> T) async throws -> (session: UserSession, value: T) {
        let session = try await session()
        return (session, try await run(username: session.username) { try await body(session) })
    }

    /// Runs `body`, turning its errors into one-line explanations.
    func run<T>(username: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw explain(error, username: username)
        }
    }

    /// A one-line reason with the fix.
    func explain(_ error: any Error, username: String? = nil) -> any Error {
        if error is CommandFailure || error is ExitCode || error is ValidationError { return error }
        if let error = error as? AccountError { return CommandFailure(error.description) }
        if let error = error as? OutboxError { return CommandFailure(error.description) }
        guard let error = error as? NetworkError else { return CommandFailure(String(describing: error)) }
        switch error {
        case .transport, .timeout:
            return CommandFailure("cannot reach the server at \(options.server) (\(error)): start it with chirp serve, or pass --server URL")
        case .server(401, _, _, _):
            return CommandFailure(AccountError.sessionExpired(username ?? "USER").description)
        case .server(_, _, let message, _):
            return CommandFailure(message)
        default:
            return CommandFailure(error.description)
        }
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes one line to standard output at once (unbuffered, so a pipe sees it immediately).
func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
