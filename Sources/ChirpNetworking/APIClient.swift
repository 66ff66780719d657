import Foundation

/// Sends `Endpoint`s: builds the request on the current `Server`, adds credentials, validates
/// and decodes the reply, retries idempotent calls after transient failures with exponential
/// backoff and jitter (honouring `Retry-After`), answers conditional `GET`s from the `ETag`
/// cache, and maps every failure to a `NetworkError`. Cancelling the calling task cancels the
/// request, including a backoff wait.
///
/// ```swift
/// let client = APIClient(server: Server(baseURL: url), transport: AsyncHTTPClientTransport())
/// let user = try await client.send(GetProfile(name: "alice"))
/// ```
public final class APIClient: Sendable {
    /// Where requests go.
    public let server: Server
    /// What moves the bytes.
    public let transport: any Transport
    /// What turns failure replies into errors.
    public let validator: any ResponseValidator
    /// Conditional-GET cache; `nil` turns caching off.
    public let cache: ETagCache?
    /// Per-attempt timeout.
    public let timeout: Duration
    private let credentials: @Sendable () -> [String: String]
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - credentials: headers added to every request, read at send time (for example
    ///     `["Authorization": "Bearer …"]` once logged in).
    ///   - sleep: how backoff waits are spent; inject to test timing without real sleeps.
    ///   - random: jitter source in 0..<1.
    public init(
        server: Server,
        transport: any Transport,
        validator: any ResponseValidator = ErrorEnvelopeValidator(),
        cache: ETagCache? = ETagCache(),
        timeout: Duration = .seconds(30),
        credentials: @escaping @Sendable () -> [String: String] = { [:] },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.server = server
        self.transport = transport
        self.validator = validator
        self.cache = cache
        self.timeout = timeout
        self.credentials = credentials
        self.sleep = sleep
        self.random = random
    }

    /// Sends the call and returns its decoded reply.
    public func send<E: Endpoint>(_ endpoint: E) async throws(NetworkError) -> E.Response {
        let response = try await sendForResponse(endpoint)
        return try decode(E.Response.self, from: response)
    }

    /// Sends the call and returns the validated raw reply (status, headers, body).
    public func sendForResponse<E: Endpoint>(_ endpoint: E) async throws(NetworkError) -> TransportResponse {
        if server.isOffline { throw .offline }
        var request = try makeRequest(endpoint)
        let cacheKey =
            endpoint.allowsConditionalCaching && endpoint.method == .get
            ? cache.map { _ in ETagCache.key(for: request) } : nil
        let cached = cacheKey.flatMap { cache?.entry(for: $0) }
        if let cached { request.headers["If-None-Match"] = cached.etag }

        let policy = endpoint.isIdempotent ? endpoint.retryPolicy : .none
        var attempt = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            if server.isOffline { throw .offline }
            var retryAfter: Duration?
            let failure: NetworkError
            do {
                let response = try await transport.perform(request)
                if let cached, response.status == 304 {
                    return TransportResponse(status: 200, headers: cached.headers, body: cached.body)
                }
                retryAfter = Self.retryAfter(response)
                try validator.validate(response)
                if let cacheKey, let etag = response.header("ETag") {
                    cache?.store(
                        ETagCache.Entry(etag: etag, body: response.body, headers: response.headers), for: cacheKey)
                }
                return response
            } catch {
                failure = error
            }
            guard failure.isTransient, attempt < policy.retries(after: failure), policy.waits(for: retryAfter) else {
                throw failure
            }
            let wait = policy.delay(forAttempt: attempt, random: random(), retryAfter: retryAfter)
            do { try await sleep(wait) } catch { throw .cancelled }
            attempt += 1
        }
    }

    // MARK: building and decoding

    private func makeRequest<E: Endpoint>(_ endpoint: E) throws(NetworkError) -> TransportRequest {
        var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        let basePath =
            components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + endpoint.path
        if !endpoint.query.isEmpty {
            components.queryItems = endpoint.query.map { URLQueryItem(name: $0.name, value: $0.value) }
        }
        guard let url = components.url else { throw .transport("invalid URL for path \(endpoint.path)") }
        var headers = ["Accept": "application/json"]
        var body: Data?
        if let value = endpoint.body, !(value is EmptyBody) {
            do { body = try JSONEncoder().encode(value) } catch {
                throw .transport("cannot encode the request body: \(error)")
            }
            headers["Content-Type"] = "application/json"
        }
        for (name, value) in credentials() { headers[name] = value }
        for (name, value) in endpoint.headers { headers[name] = value }
        return TransportRequest(method: endpoint.method, url: url, headers: headers, body: body, timeout: timeout)
    }

    private func decode<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws(NetworkError) -> T {
        if T.self == EmptyResponse.self { return EmptyResponse() as! T }
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch let error as DecodingError {
            throw .decoding(path: Self.path(of: error), reason: Self.reason(of: error))
        } catch {
            throw .decoding(path: "", reason: "\(error)")
        }
    }

    /// The reply's `Retry-After` (delay-seconds or an HTTP date), if any.
    static func retryAfter(_ response: TransportResponse) -> Duration? {
        response.header("Retry-After").flatMap { RetryAfterHeader.delay(from: $0) }
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
            case .keyNotFound(let key, let context):
                DecodingError.Context(
                    codingPath: context.codingPath + [key], debugDescription: context.debugDescription)
            @unknown default: nil
            }
        return context?.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") ?? ""
    }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound: "missing"
        case .typeMismatch(let type, _): "expected \(type)"
        case .valueNotFound(let type, _): "expected \(type), found null"
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "\(error)"
        }
    }
}
