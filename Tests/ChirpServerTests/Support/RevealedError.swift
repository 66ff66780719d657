import PostgresNIO

/// An error that a test reports with everything it knows.
///
/// `PSQLError`'s description is deliberately generic ("Generic description to prevent accidental
/// leakage of sensitive data"), so a failed test on PostgreSQL said only `PSQLError`. Test
/// databases hold nothing secret: here the failure shows the server's message and SQL state.
struct RevealedError: Error, CustomStringConvertible {
    let underlying: PSQLError

    /// A PostgreSQL error wrapped to show itself; any other error (an expectation, a
    /// cancellation) as it is.
    static func revealing(_ error: any Error) -> any Error {
        (error as? PSQLError).map(RevealedError.init(underlying:)) ?? error
    }

    var description: String { String(reflecting: underlying) }
}
