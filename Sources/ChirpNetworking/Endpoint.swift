/// One API call: where it goes, what it sends, what comes back, and how it may be retried.
///
/// ```swift
/// struct GetProfile: Endpoint {
///     typealias Response = Profile
///     var name: String
///     var path: String { "/v1/users/\(name)" }
/// }
/// let profile = try await client.send(GetProfile(name: "alice"))
/// ```
public protocol Endpoint: Sendable {
    /// The decoded reply; `EmptyResponse` for calls that answer without a body.
    associatedtype Response: Decodable & Sendable
    /// The encoded request body; `EmptyBody` for calls without one.
    associatedtype Body: Encodable & Sendable = EmptyBody

    var method: HTTPMethod { get }
    /// The path below the server's base URL, starting with `/`, already percent-encoded.
    var path: String { get }
    var query: [(name: String, value: String)] { get }
    var body: Body? { get }
    var headers: [String: String] { get }
    /// Whether sending twice is as good as once; only such calls are retried.
    var isIdempotent: Bool { get }
    var retryPolicy: RetryPolicy { get }
    /// Whether a `GET` may be answered from the `ETag` cache after a `304`.
    var allowsConditionalCaching: Bool { get }
}

extension Endpoint {
    public var method: HTTPMethod { .get }
    public var query: [(name: String, value: String)] { [] }
    public var body: Body? { nil }
    public var headers: [String: String] { [:] }
    public var isIdempotent: Bool { method.isIdempotentByDefault }
    public var retryPolicy: RetryPolicy { .default }
    public var allowsConditionalCaching: Bool { method == .get }
}

/// The body of a request that has none.
public struct EmptyBody: Encodable, Sendable {
    /// Creates the empty value.
    public init() {}
}

/// The reply of a call that answers without a body (such as 204).
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates the empty value.
    public init() {}
}
