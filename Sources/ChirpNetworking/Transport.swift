import Foundation

/// A request as a transport sends it.
public struct TransportRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The absolute URL, query included.
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// How long to wait for the whole reply.
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: HTTPMethod, url: URL, headers: [String: String] = [:], body: Data? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A reply as a transport received it. Header names are matched ignoring case.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    /// Creates a reply.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header, found ignoring case.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// Moves bytes: the one part of the network layer that touches sockets. `APIClient` does
/// everything else (encoding, validation, retries, caching) above it.
///
/// Implementations throw `NetworkError.timeout`, `.cancelled` or `.transport` on failure and
/// return any status the server sent without judging it.
public protocol Transport: Sendable {
    func perform(_ request: TransportRequest) async throws(NetworkError) -> TransportResponse
}
