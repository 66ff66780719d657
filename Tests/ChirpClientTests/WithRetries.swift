import ChirpNetworking

/// Many retries with short waits, for a server that fails on purpose.
let persistent = RetryPolicy(maxRetries: 30, baseDelay: .milliseconds(1))

/// The wrapped call with another retry policy.
struct WithRetries<Wrapped: Endpoint>: Endpoint {
    typealias Response = Wrapped.Response
    typealias Body = Wrapped.Body
    var policy: RetryPolicy
    var wrapped: Wrapped
    init(_ policy: RetryPolicy, _ wrapped: Wrapped) {
        self.policy = policy
        self.wrapped = wrapped
    }
    var method: HTTPMethod { wrapped.method }
    var path: String { wrapped.path }
    var query: [(name: String, value: String)] { wrapped.query }
    var body: Wrapped.Body? { wrapped.body }
    var isIdempotent: Bool { wrapped.isIdempotent }
    var retryPolicy: RetryPolicy { policy }
}
