import ChirpModels
import ChirpNetworking
import Foundation
import Synchronization

/// An `APIClient` for a Chirp server that carries the session token: set `token` after
/// logging in and every request is sent with `Authorization: Bearer <token>`.
public final class ChirpAPIClient: Sendable {
    /// The underlying network client.
    public let client: APIClient
    /// The same client, answering a 409 instead of throwing it (`sendReadingConflict`).
    private let conflictClient: APIClient
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
        let credentials: @Sendable () -> [String: String] = {
            storage.value.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        }
        client = APIClient(
            server: server, transport: transport, validator: ServerFailureLogger(), timeout: timeout,
            credentials: credentials, sleep: sleep)
        conflictClient = APIClient(
            server: server, transport: transport, validator: ConflictPassingValidator(), timeout: timeout,
            credentials: credentials, sleep: sleep)
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

    /// Sends a call whose 409 carries what the caller needs next (`devices_changed` and the
    /// devices to seal to): the decoded reply, or the 409's error body. Any other failure throws.
    public func sendReadingConflict<E: Endpoint>(_ endpoint: E) async throws(NetworkError) -> ReplyOrConflict<
        E.Response
    > {
        let response = try await conflictClient.sendForResponse(endpoint)
        let decoder = JSONDecoder()
        if response.status == 409 {
            guard let body = try? decoder.decode(APIErrorBody.self, from: response.body) else {
                throw .http(status: 409, body: String(decoding: response.body.prefix(1024), as: UTF8.self))
            }
            return .conflict(body)
        }
        if E.Response.self == EmptyResponse.self { return .reply(EmptyResponse() as! E.Response) }
        do {
            return .reply(try decoder.decode(E.Response.self, from: response.body))
        } catch {
            throw .decoding(path: "", reason: String(describing: error))
        }
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

/// A reply, or the server's 409 with its error body (`ChirpAPIClient.sendReadingConflict`).
public enum ReplyOrConflict<Response: Sendable>: Sendable {
    case reply(Response)
    case conflict(APIErrorBody)
}

/// Validates as `ServerFailureLogger` does, but lets a 409 through to the caller.
struct ConflictPassingValidator: ResponseValidator {
    private let validator = ServerFailureLogger()

    func validate(_ response: TransportResponse) throws(NetworkError) {
        guard response.status != 409 else { return }
        try validator.validate(response)
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
