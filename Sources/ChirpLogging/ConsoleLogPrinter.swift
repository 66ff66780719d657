import Foundation

/// Prints entries as lines: `2026-11-22T10:15:30.123Z WARNING [source] message key=value`, to
/// standard error by default.
public final class ConsoleLogPrinter: LogObserver {
    private let write: @Sendable (String) -> Void

    /// - Parameter write: where lines go (standard error unless given).
    public init(write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.write = write
    }

    /// Handles one entry (see `LogObserver`).
    public func receive(_ entry: LogEntry) {
        write(Self.line(for: entry) + "\n")
    }

    /// The printed form of an entry.
    public static func line(for entry: LogEntry) -> String {
        var line = "\(LogEntry.format(entry.timestamp)) \(entry.level.rawValue.uppercased())"
        if let source = entry.source { line += " [\(source)]" }
        line += " \(entry.message)"
        for (key, value) in (entry.metadata ?? [:]).sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        return line
    }
}
