import Foundation

/// Where a PostgreSQL database is and how many connections one server instance may hold to it,
/// parsed from a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL.
public struct PostgresSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var username: String
    /// Never printed: `description` leaves it out.
    public var password: String?
    public var database: String
    /// Most connections of the pool (requests wait for a free one beyond that).
    public var poolSize: Int

    /// Parses `url`; the error says what is wrong with it.
    public init(url: String, poolSize: Int = 16) throws(PostgresSettingsError) {
        guard let components = URLComponents(string: url),
              ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "")
        else {
            throw PostgresSettingsError("the database URL must look like postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresSettingsError("the database URL has no host: postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresSettingsError("the database URL has no user name: postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresSettingsError("the database URL names no database: add /DATABASE after the host and port")
        }
        guard (1...1000).contains(poolSize) else {
            throw PostgresSettingsError("the pool size must be from 1 to 1000")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.removingPercentEncoding ?? database
        self.poolSize = poolSize
    }

    /// The URL, password included, to hand to another `chirp` process.
    public var url: String {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = username
        components.password = password
        components.host = host
        components.port = port
        components.path = "/" + database
        return components.string!
    }

    /// The URL without the password, for logs and messages.
    public var redactedURL: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }
}

/// A database URL that cannot be used, and why.
public struct PostgresSettingsError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
