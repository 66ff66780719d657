import ChirpClient
import ChirpLogging
import ChirpModules
import ChirpNetworking
import Foundation
import Synchronization

/// The client's diagnostics for this process, started once by whichever client front end runs
/// (a command's `ClientRuntime`, the terminal app, `chirp open`, `chirp demo`): swift-log
/// bootstrapped into the `LogService`, errors on disk before the log call returns, batches to
/// `POST /v1/logs`, crashes recorded for the next run. `ChirpCommand.main` calls `finish()` on
/// the way out.
enum ClientProcess {
    private static let current = Mutex<ClientDiagnostics?>(nil)

    /// Where the output goes: the terminal app owns the screen, so it prints no log line;
    /// commands print warnings and errors to standard error.
    enum Console {
        case none, standardError
    }

    /// The process's diagnostics, started on first use for the client directory `context` and
    /// `server` (later calls get the same one). Nil when the log directory cannot be used:
    /// logging must never stop the client.
    static func diagnostics(context: AppContext, server: Server, console: Console) -> ClientDiagnostics? {
        current.withLock { current in
            if let current { return current }
            guard
                let diagnostics = try? ClientDiagnostics.product(
                    context: context, server: server, consoleLevel: console == .none ? nil : .warning)
            else { return nil }
            diagnostics.start(catchCrashes: true, uploadLeftovers: false)
            current = diagnostics
            return diagnostics
        }
    }

    /// For an orderly exit: reports what is waiting (for at most two seconds) and removes the
    /// crash handlers.
    static func finish() async {
        guard let diagnostics = current.withLock({ $0 }) else { return }
        await diagnostics.finish(timeout: .seconds(2))
    }
}
