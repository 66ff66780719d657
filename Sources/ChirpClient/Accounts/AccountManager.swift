import ChirpModels
import ChirpModules
import ChirpNetworking
import Foundation

/// Why there is no session to work with.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nobody is logged in on this client directory.
    case notLoggedIn
    /// The stored session was refused by the server (expired or revoked).
    case sessionExpired(String)

    public var description: String {
        switch self {
        case .notLoggedIn: "not logged in: run chirp login USER (or chirp register USER)"
        case .sessionExpired(let user): "the session of \(user) has expired or was revoked: run chirp login \(user)"
        }
    }
}

/// Register, log in, log out, and reopen the current user's session. The token lives in the
/// user's context (file mode 0600); logging out revokes it on the server and wipes the user's
/// local data.
public final class AccountManager: Sendable {
    /// The client directory.
    public let context: AppContext
    /// The server's address (shared by every session this manager opens).
    public let server: Server
    private let transport: any Transport
    private let clock: ClientClock

    /// A manager over `context` for the server at `server`.
    public init(
        context: AppContext, server: Server, transport: any Transport = AsyncHTTPClientTransport(),
        clock: ClientClock = .live
    ) {
        self.context = context
        self.server = server
        self.transport = transport
        self.clock = clock
    }

    /// A manager on the client directory `home` for the server at `serverURL`.
    public convenience init(home: URL, serverURL: URL) throws {
        self.init(context: try AppContext(root: home), server: Server(baseURL: serverURL))
    }

    func makeAPI(token: String?) -> ChirpAPIClient {
        ChirpAPIClient(server: server, token: token, transport: transport, sleep: clock.sleep)
    }

    /// Creates an account and logs in as it.
    public func register(_ username: String, password: String, displayName: String? = nil) async throws -> UserSession {
        let api = makeAPI(token: nil)
        let user = try await api.register(username, password: password, displayName: displayName)
        return try await adopt(user: user, api: api)
    }

    /// Logs in; the user's earlier local data (if any) is kept.
    public func login(_ username: String, password: String) async throws -> UserSession {
        let api = makeAPI(token: nil)
        let user = try await api.login(username, password: password)
        return try await adopt(user: user, api: api)
    }

    /// The current user's session from the stored token (no network call).
    public func currentSession() throws -> UserSession {
        guard let user = context.currentUser, let token = user.token() else { throw AccountError.notLoggedIn }
        return try UserSession(context: user, api: makeAPI(token: token), clock: clock)
    }

    /// Adopts a token given from outside (`--token`): finds out whose it is and switches to them.
    public func adopt(token: String) async throws -> UserSession {
        let api = makeAPI(token: token)
        let user = try await api.send(ChirpEndpoints.Me())
        return try await adopt(user: user, api: api)
    }

    /// Logs the current user out: revokes the token on the server (if it can be reached) and
    /// wipes their local data either way. Returns who was logged out and whether the server
    /// confirmed.
    @discardableResult
    public func logout() async throws -> (username: String, revoked: Bool) {
        guard let user = context.currentUser else { throw AccountError.notLoggedIn }
        var revoked = false
        if let token = user.token() {
            do {
                try await makeAPI(token: token).logout()
                revoked = true
            } catch let error where error.status == 401 {
                revoked = true  // already invalid
            } catch {
                revoked = false
            }
        }
        try context.logout()
        return (user.username, revoked)
    }

    /// Deletes the current user's account on the server (the password is asked again), then
    /// wipes their local data as logging out does. Returns who was deleted. A wrong password
    /// throws the server's 401 and keeps everything.
    @discardableResult
    public func deleteAccount(password: String) async throws -> String {
        guard let user = context.currentUser, let token = user.token() else { throw AccountError.notLoggedIn }
        _ = try await makeAPI(token: token).send(ChirpEndpoints.DeleteAccount(DeleteAccountRequest(password: password)))
        try context.logout()
        return user.username
    }

    /// Makes `user` the current one with `api`'s token, and registers this installation's
    /// device for the new session (encrypted conversations; a failure is retried when a
    /// message is sealed).
    private func adopt(user: User, api: ChirpAPIClient) async throws -> UserSession {
        guard let token = api.token else { throw AccountError.notLoggedIn }
        let contextUser = try context.switchUser(to: user.username)
        try contextUser.saveToken(token)
        let session = try UserSession(context: contextUser, api: api, clock: clock)
        await session.registerDevice()
        return session
    }
}
