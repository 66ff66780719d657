import ChirpModules
import Foundation
import Logging
import Synchronization

/// A named step of the client's start-up.
public enum StartupStep: String, Sendable, CaseIterable {
    /// Open the user's local database (adopting a `--token` first finds out whose it is).
    case database
    /// Restore the session: it becomes the app's current one.
    case session
    /// Start the log reporter: what earlier runs left goes to the server as this user.
    case logReporter = "log-reporter"
    /// Start sync: live, a one-shot catch-up, or nothing (per front end).
    case sync

    /// What the step does, for messages.
    public var title: String {
        switch self {
        case .database: "opening the local database"
        case .session: "restoring the session"
        case .logReporter: "starting the error reporter"
        case .sync: "starting sync"
        }
    }
}

/// What start-up does about sync.
public enum StartupSync: Sendable {
    /// Nothing (commands that only read or write through the session).
    case none
    /// One catch-up with the server's event stream before going on.
    case catchUp
    /// The app's live sync (`LiveSync`), left running.
    case live
}

/// A start-up step failed: which one, why, and (in `description`) what to do.
public struct StartupFailure: Error, Sendable, CustomStringConvertible {
    /// The step that failed.
    public var step: StartupStep
    /// Its error.
    public var error: any Error

    /// A failure of `step` with `error`.
    public init(step: StartupStep, error: any Error) {
        self.step = step
        self.error = error
    }

    /// What to do about it.
    public var remedy: String {
        switch step {
        case .database: "free some disk space, or delete this user's directory and log in again"
        case .session: "log in again"
        case .logReporter: "error reports wait on disk for the next run"
        case .sync: "your data shows as last synced; messages wait in the outbox"
        }
    }

    public var description: String {
        if let account = error as? AccountError { return account.description }
        return "\(step.title.prefix(1).uppercased() + step.title.dropFirst()) failed: \(error); \(remedy)."
    }
}

/// What the start-up did.
public struct StartupReport: Sendable {
    /// The session started, if anyone is logged in.
    public var session: UserSession?
    /// The steps in the order they started.
    public var steps: [StartupStep]
    /// The first failed step, if any (the steps after it that depend on it did not run).
    public var failure: StartupFailure?
}

/// Runs the client's start-up through the kit's `Initiator`: `database` → `session` →
/// `log-reporter` → `sync`, each a named step that waits for the one before; a failure skips
/// what depends on it and is reported with what to do.
struct ClientStartup {
    let sessions: SessionStore
    let diagnostics: ClientDiagnostics?
    let liveSync: LiveSync

    /// Runs the steps; `opened` is a session that login or register opened already (its
    /// database is open).
    func run(sync: StartupSync, opened: UserSession? = nil) async -> StartupReport {
        let found = Mutex<UserSession?>(opened)
        let errors = Mutex<[StartupStep: any Error]>([:])
        let sessions = self.sessions
        let diagnostics = self.diagnostics
        let liveSync = self.liveSync
        func step(_ step: StartupStep, after: [StartupStep], _ work: @escaping @Sendable () async throws -> Void)
            -> InitiatorOperation
        {
            InitiatorOperation(step.rawValue, dependsOn: after.map(\.rawValue)) {
                do { try await work() } catch {
                    errors.withLock { $0[step] = error }
                    throw error
                }
            }
        }
        let initiator = Initiator(
            operations: [
                step(.database, after: []) {
                    if found.withLock({ $0 }) != nil { return }
                    do {
                        let session = try await sessions.session()
                        found.withLock { $0 = session }
                    } catch AccountError.notLoggedIn {
                        // Nobody logged in: nothing to open; the front end asks who you are.
                    }
                },
                step(.session, after: [.database]) {
                    guard let session = found.withLock({ $0 }) else { return }
                    guard session.context.token() != nil else { throw AccountError.sessionExpired(session.username) }
                    sessions.set(session)
                },
                step(.logReporter, after: [.session]) {
                    guard found.withLock({ $0 }) != nil else { return }
                    diagnostics?.startUploads()
                },
                step(.sync, after: [.logReporter]) {
                    guard let session = found.withLock({ $0 }) else { return }
                    switch sync {
                    case .none: break
                    case .catchUp: try await session.sync.catchUp()
                    case .live: liveSync.start(session)
                    }
                },
            ], maxConcurrent: 1)
        let report: InitiatorReport
        do {
            report = try await initiator.run()
        } catch {
            preconditionFailure("the start-up graph is fixed: \(error)")
        }
        let started = report.started.compactMap(StartupStep.init(rawValue:))
        let failure = started.lazy.compactMap { step in
            errors.withLock { $0[step] }.map { StartupFailure(step: step, error: $0) }
        }.first
        if let failure, !(failure.error is AccountError) {
            Logger(label: "chirp.startup").error("start-up step \(failure.step.rawValue) failed: \(failure.error)")
        }
        return StartupReport(
            session: failure?.step == .database || failure?.step == .session ? nil : found.withLock { $0 },
            steps: started, failure: failure)
    }
}
