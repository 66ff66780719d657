import PostgresNIO

/// Secret-free descriptions of storage failures, for operators.
public enum DatabaseFailure {
    /// The server's own message for a PostgreSQL error (such as `database "x" does not exist`),
    /// or the kind of connection failure; never the password.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if error.code == .connectionError, let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}
