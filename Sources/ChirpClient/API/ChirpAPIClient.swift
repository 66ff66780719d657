import ChirpModels
import ChirpNetworking
import Foundation
import Synchronization

/// An `APIClient` for a Chirp server that carries the session token: set `token` after
/// logging in and every request is sent with `Authorization: Bearer <token>`.
public final class ChirpAPIClient: Sendable {
    /// The underlying network client.
    public let client: APIClient
    private let tokenStorage: TokenBox

    /// - Parameters:
    ///   - transport: defaults to `AsyncHTTPClientTransport`.
    ///   - timeout: how long one attempt may take.
    ///   - sleep: backoff waits (inject in tests).
    public convenience init(
        baseURL: URL, token: String? = nil, transport: any Transport = AsyncHTTPClientTransport(),
        timeout: Duration = .seconds(30),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.init(server: Server(baseURL: baseURL), token: token, transport: transport, timeout: timeout, sleep: sleep)
    }

    /// A client for `server` (whose environment can be switched later).
    public init(
        server: Server, token: String? = nil, transport: any Transport = AsyncHTTPClientTransport(),
        timeout: Duration = .seconds(30),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        let storage = TokenBox(token)
        tokenStorage = storage
        client = APIClient(
            server: server, transport: transport, validator: ServerFailureLogger(), timeout: timeout,
            credentials: { storage.value.map { ["Authorization": "Bearer \($0)"] } ?? [:] },
            sleep: sleep)
    }

    /// The bearer token sent with every request.
    public var token: String? {
        get { tokenStorage.value }
        set { tokenStorage.value = newValue }
    }

    /// Sends a call.
    public func send<E: Endpoint>(_ endpoint: E) async throws(NetworkError) -> E.Response {
        try await client.send(endpoint)
    }

    /// Creates an account and keeps its token.
    @discardableResult
    public func register(_ username: String, password: String, displayName: String? = nil) async throws(NetworkError)
        -> User
    {
        let auth = try await send(
            ChirpEndpoints.CreateAccount(
                RegisterRequest(username: username, password: password, displayName: displayName)))
        token = auth.token
        return auth.user
    }

    /// Logs in and keeps the token.
    @discardableResult
    public func login(_ username: String, password: String) async throws(NetworkError) -> User {
        let auth = try await send(ChirpEndpoints.Login(LoginRequest(username: username, password: password)))
        token = auth.token
        return auth.user
    }

    /// Logs out (the token stops working) and forgets the token.
    public func logout() async throws(NetworkError) {
        _ = try await send(ChirpEndpoints.Logout())
        token = nil
    }
}

/// The token, shared between the client and its credentials closure.
final class TokenBox: Sendable {
    private let storage: Mutex<String?>
    init(_ token: String?) { storage = Mutex(token) }
    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
