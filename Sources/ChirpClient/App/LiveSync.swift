import ChirpModels
import ChirpModules
import Foundation
import Logging
import Synchronization

/// Hears what the live sync does: every applied event and every connection change.
public protocol LiveSyncListener: AnyObject, Sendable {
    /// The connection changed (live, connecting, polling, reconnecting).
    func connectionChanged(_ state: SyncEngine.ConnectionState)
    /// An event was applied to the local database.
    func eventApplied(_ event: Event)
}

extension LiveSyncListener {
    public func eventApplied(_ event: Event) {}
}

/// The one live sync of the app: runs the session's `SyncEngine` and broadcasts its connection
/// state and events to every listener through a `MulticastDelegate` (the status bar's stream,
/// the diagnostics), so none of them runs a connection of its own. A listener added late is
/// told the current state at once. (Going live drains the outbox: the session's `SyncEngine`
/// does that itself, for `chirp watch` too.)
public final class LiveSync: Sendable {
    /// Who hears the connection and the events (held weakly).
    public let listeners = MulticastDelegate<any LiveSyncListener>()
    private let state = Mutex<(task: Task<Void, Never>?, connection: SyncEngine.ConnectionState?)>((nil, nil))
    private let builtIn: [any LiveSyncListener]

    /// A live sync whose built-in listener logs connection trouble.
    public init() {
        builtIn = [ConnectionLog()]
        for listener in builtIn { listeners.add(listener) }
    }

    /// The current connection state (nil: not running).
    public var connection: SyncEngine.ConnectionState? { state.withLock { $0.connection } }

    /// Adds a listener and tells it the current state.
    public func add(_ listener: any LiveSyncListener) {
        listeners.add(listener)
        if let connection { listener.connectionChanged(connection) }
    }

    /// Removes a listener.
    public func remove(_ listener: any LiveSyncListener) {
        listeners.remove(listener)
    }

    /// Starts syncing `session` live (stopping an earlier run).
    public func start(_ session: UserSession) {
        let task = Task { [listeners] in
            await session.sync.run(
                onEvent: { event in listeners.invoke { $0.eventApplied(event) } },
                onState: { connection in
                    self.state.withLock { $0.connection = connection }
                    listeners.invoke { $0.connectionChanged(connection) }
                    // Live: the device is registered if it is not yet (a session from before
                    // encrypted conversations has none), beside the stream.
                    if connection == .live { Task { await session.keepDeviceRegistered() } }
                })
        }
        let earlier = state.withLock { state -> Task<Void, Never>? in
            defer { state.task = task }
            return state.task
        }
        earlier?.cancel()
    }

    /// Stops syncing (logout, quit).
    public func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            defer { state = (nil, nil) }
            return state.task
        }
        task?.cancel()
    }
}

/// Connection trouble into the client's log: a reconnect is a warning (console, not reported),
/// the fifth in a row an error (reported).
private final class ConnectionLog: LiveSyncListener {
    let logger = Logger(label: "chirp.sync")

    func connectionChanged(_ state: SyncEngine.ConnectionState) {
        guard case .reconnecting(let attempt, let after, let reason) = state else { return }
        let level: Logger.Level = attempt == 5 ? .error : .warning
        logger.log(
            level: level, "the live connection dropped: \(reason)",
            metadata: ["attempt": "\(attempt)", "retry_in": "\(after)"])
    }
}
