import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import ChirpModules
import ChirpNetworking
import Foundation

/// What every client command shares: the client assembled for `--home` and `--server`
/// (`ChirpClientApp`: account manager, modules, router, start-up), the process's diagnostics,
/// the session (from `--token`, else the stored one) opened by the start-up steps, the outbox
/// flush that runs before any other work with the server, and errors that say what to do.
struct ClientRuntime {
    let options: ClientOptions
    let app: ChirpClientApp

    /// Sessions are opened, adopted and closed by the app's account manager.
    var manager: AccountManager { app.accounts }

    init(_ options: ClientOptions, console: ClientProcess.Console = .standardError) throws {
        self.options = options
        let accounts = try AccountManager(home: URL(fileURLWithPath: options.home), serverURL: try options.serverURL)
        let diagnostics = ClientProcess.diagnostics(
            context: accounts.context, server: accounts.server, console: console)
        app = try ChirpClientApp(accounts: accounts, token: options.sessionToken, diagnostics: diagnostics)
    }

    /// The logged-in session through the start-up steps (database → session → log reporter),
    /// without touching the network unless `--token` must be adopted.
    func session() async throws -> UserSession {
        let report = await app.start(sync: .none)
        if let session = report.session { return session }
        throw explain(report.failure.map { $0 as any Error } ?? AccountError.notLoggedIn)
    }

    /// The session with its outbox sent: what a command that reaches the server starts with.
    /// Fails (with the reason) when the server cannot be reached.
    func connectedSession() async throws -> UserSession {
        let session = try await session()
        await session.keepDeviceRegistered()
        do {
            let report = try await session.drainOutbox()
            if report.stillPending > 0, let blocked = report.blockedBy { throw blocked }
            for failed in report.failed {
                printError(
                    "message to \(failed.recipient) failed: \(failed.failure ?? "refused") (chirp retry \(failed.id))")
            }
        } catch {
            throw explain(error, username: session.username)
        }
        return session
    }

    /// The session with its outbox sent, then `body` on it; every error explained for that user.
    func withConnectedSession<T>(_ body: (UserSession) async throws -> T) async throws -> (
        session: UserSession, value: T
    ) {
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
        if error is CommandFailure || error is ExitCode || error is ArgumentParser.ValidationError { return error }
        if let failure = error as? StartupFailure {
            if failure.error is AccountError || failure.error is NetworkError {
                return explain(failure.error, username: username)
            }
            return CommandFailure(failure.description)
        }
        if let error = error as? AccountError { return CommandFailure(error.description) }
        if let error = error as? OutboxError { return CommandFailure(error.description) }
        if let error = error as? EncryptionError { return CommandFailure(error.description) }
        guard let error = error as? NetworkError else { return CommandFailure(String(describing: error)) }
        switch error {
        case .transport, .timeout:
            return CommandFailure(
                "cannot reach the server at \(options.server) (\(error)): start it with chirp serve, or pass --server URL"
            )
        case .server(401, "invalid_credentials", let message, _):  // a wrong password, not a dead session
            return CommandFailure(message)
        case .server(401, _, _, _):
            return CommandFailure(AccountError.sessionExpired(username ?? "USER").description)
        case .server(_, _, let message, _):
            return CommandFailure(message)
        default:
            return CommandFailure(error.description)
        }
    }
}
