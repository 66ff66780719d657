/// Failures of the persistence layer.
public enum PersistenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A record could not be turned into columns, or a row back into a record.
    case coding(String)
    /// The database refused an operation (constraint, missing table or column, I/O …).
    case database(String)

    public var description: String {
        switch self {
        case .coding(let reason): "record coding failed: \(reason)"
        case .database(let reason): "database error: \(reason)"
        }
    }
}
