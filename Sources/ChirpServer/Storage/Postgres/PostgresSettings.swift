import Foundation

/// Where a PostgreSQL database is and how many connections one server instance may hold to it,
/// parsed from a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL.
///
/// The URL may list several hosts, as libpq's do: `postgres://USER:PASSWORD@HOST1:PORT1,HOST2:PORT2/DATABASE`
/// (a primary and its standbys). Each instance then uses the first host that accepts writes
/// (`pg_is_in_recovery()` false, libpq's `target_session_attrs=read-write`, the only behaviour,
/// so that parameter may be given or left out), and looks again when the database fails.
public struct PostgresSettings: Sendable, Equatable {
    /// One host of the URL.
    public struct Endpoint: Sendable, Equatable {
        public var host: String
        public var port: Int
    }

    /// The hosts in the URL's order (one unless the URL lists a primary and standbys).
    public var endpoints: [Endpoint]
    /// The first host.
    public var host: String { endpoints[0].host }
    public var port: Int { endpoints[0].port }
    public var username: String
    /// Never printed: `description` leaves it out.
    public var password: String?
    public var database: String
    /// Most connections of the pool (requests wait for a free one beyond that).
    public var poolSize: Int

    /// Parses `url`; the error says what is wrong with it.
    public init(url: String, poolSize: Int = 16) throws(PostgresSettingsError) {
        // URLComponents takes one host: parse the list, then the rest with the first host.
        var hostList: [Substring] = []
        var single = url
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            let userEnd = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
            hostList = authority[userEnd...].split(separator: ",", omittingEmptySubsequences: false)
            if hostList.count > 1 {
                single = String(url[..<userEnd]) + hostList[0] + url[authority.endIndex...]
            }
        }
        guard let components = URLComponents(string: single),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "")
        else {
            throw PostgresSettingsError("the database URL must look like postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresSettingsError("the database URL has no host: postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresSettingsError(
                "the database URL has no user name: postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresSettingsError("the database URL names no database: add /DATABASE after the host and port")
        }
        guard (1...1000).contains(poolSize) else {
            throw PostgresSettingsError("the pool size must be from 1 to 1000")
        }
        for item in components.queryItems ?? [] where item.name == "target_session_attrs" && item.value != "read-write"
        {
            throw PostgresSettingsError("target_session_attrs takes read-write (the only mode Chirp supports)")
        }
        var endpoints = [Endpoint(host: host, port: components.port ?? 5432)]
        for extra in hostList.dropFirst() {
            let parts = extra.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), !parts[0].isEmpty, let port = parts.count == 2 ? Int(parts[1]) : 5432,
                (1...65535).contains(port)
            else {
                throw PostgresSettingsError("the database URL's host list must look like HOST1:PORT1,HOST2:PORT2")
            }
            endpoints.append(Endpoint(host: String(parts[0]), port: port))
        }
        self.endpoints = endpoints
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
        guard endpoints.count > 1 else { return components.string! }
        // The other hosts go after the first, as libpq lists them.
        let url = components.string!
        let slash = url.range(of: "/", range: url.range(of: "://")!.upperBound..<url.endIndex)!.lowerBound
        return url[..<slash] + endpoints.dropFirst().map { ",\($0.host):\($0.port)" }.joined() + url[slash...]
    }

    /// The URL without the password, for logs and messages.
    public var redactedURL: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(endpoints.map { "\($0.host):\($0.port)" }.joined(separator: ","))/\(database)"
    }
}

/// A database URL that cannot be used, and why.
public struct PostgresSettingsError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
