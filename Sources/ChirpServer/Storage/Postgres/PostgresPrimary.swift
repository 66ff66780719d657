import Logging
import PostgresNIO

/// Finds which host of a database URL is the primary: the first, in the URL's order, that
/// accepts writes (libpq's `target_session_attrs=read-write`). With one host that host is
/// used without asking.
enum PostgresPrimary {
    /// A connection to the primary, and the index of its host in `settings.endpoints`.
    static func connect(_ settings: PostgresSettings, applicationName: String, logger: Logger) async throws -> (
        PostgresConnection, Int
    ) {
        var lastError: any Error = StorageError.unavailable(cause: "no host of the database URL accepts writes")
        for index in settings.endpoints.indices {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: PostgresStorage.connectionConfiguration(
                        settings, endpoint: index, applicationName: applicationName),
                    id: index, logger: logger)
                guard settings.endpoints.count > 1 else { return (connection, index) }
                var standby = true
                do {
                    for try await row in try await connection.query("SELECT pg_is_in_recovery()", logger: logger) {
                        standby = try row.decode(Bool.self)
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                if !standby { return (connection, index) }
                try? await connection.close()
                let endpoint = settings.endpoints[index]
                lastError = StorageError.unavailable(
                    cause: "\(endpoint.host):\(endpoint.port) is a standby (in recovery)")
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}
