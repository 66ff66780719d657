import Synchronization

/// Why one of the bench's event streams ended, as its `StreamSocket` saw it first: the close
/// frame the server sent (its code and reason), an error in the bench's own pipeline (a frame it
/// could not decode, a reset; the bench then closes the connection itself), or the connection
/// ending with neither (the server, or the bench at the end of a run, dropped it). A report
/// names the cause instead of counting every inactive channel as closed by the server.
final class StreamEnding: Sendable {
    /// What ended a stream.
    enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The server's close frame: its code (nil when it carried none) and its reason.
        case closeFrame(code: UInt16?, reason: String)
        /// An error caught in the bench's pipeline.
        case clientError(String)
        /// The connection ended without a close frame or an error.
        case dropped

        var description: String {
            switch self {
            case .closeFrame(let code, let reason):
                "the server closed it (" + (code.map { "\($0)" } ?? "no code") + (reason.isEmpty ? "" : " \(reason)")
                    + ")"
            case .clientError(let error): "the bench closed it on an error (\(error))"
            case .dropped: "the connection ended without a close frame"
            }
        }
    }

    private let first = Mutex<Cause?>(nil)

    /// Why the stream ended; nil while it is open.
    var cause: Cause? { first.withLock { $0 } }

    /// Notes `cause` unless a close frame or an error was noted before: either is followed by
    /// the connection ending, and the first is the reason. The connection's ending noted first
    /// gives way to an error noted after it: on a protocol error NIO's error handler sends its
    /// close frame and closes the channel before the error reaches the last handler.
    func note(_ cause: Cause) {
        first.withLock { first in
            if first == nil || first == .dropped { first = cause }
        }
    }

    /// The causes of `endings` that ended, with how many streams each ended
    /// ("2 × the server closed it (1008 too many streams)"), most frequent first.
    static func summary(_ endings: [StreamEnding]) -> [String] {
        let counts = Dictionary(endings.compactMap(\.cause).map { ($0.description, 1) }, uniquingKeysWith: +)
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) × \($0.key)" }
    }
}
