/// Receives the log entries of the levels it registered for.
///
/// `LogService` calls `receive` on a serial queue of the observer's own, so entries arrive in
/// the order they were logged and never on the caller's thread — except for levels where
/// `deliversSynchronously` is true, which are handed over before the log call returns.
public protocol LogObserver: AnyObject, Sendable {
    func receive(_ entry: LogEntry)
    /// Whether entries of this level must be handled before the log call returns (a crash
    /// reporter writing fatal entries to disk). Default: false.
    func deliversSynchronously(_ level: LogLevel) -> Bool
}

extension LogObserver {
    /// Whether entries of this level are handled before the log call returns.
    public func deliversSynchronously(_ level: LogLevel) -> Bool { false }
}
