import ChirpModels

/// Accounts and sessions: registering, logging in (with its throttle of failed attempts),
/// logging out, and turning a bearer token into the `Viewer` it belongs to.
struct AccountService: Sendable {
    let store: any AccountStore
    /// Sessions verified recently (see `SessionCache`).
    let sessions: SessionCache
    let hasher: PasswordHasher
    /// Limits and slows password guesses (login, password change, account deletion).
    let loginThrottle: LoginThrottle
    let tokenLifetime: Duration
    let now: @Sendable () -> Timestamp
    /// Wakes the audience of `user.deleted` after an account deletion commits.
    var hub: EventHub? = nil
    /// Other instances (PostgreSQL): told when sessions end, so their caches forget them.
    var bus: (any ClusterEventBus)? = nil
    /// When a session's last use is written (at most once a minute per session).
    var useRecorder = SessionUseRecorder()
    /// The account-creation limit (`limits.accounts`, per client address).
    var limits = RateLimits.off
    /// This instance's event streams: those of ended sessions close.
    var streams: StreamRoster? = nil
    /// The group rules an account deletion leaves the account's groups by.
    var groupRules = GroupRules(maxMembers: ServerConfiguration().maxGroupMembers)

    /// Creates an account with its first session; `clientAddress` (the connection's, or the
    /// one a trusted proxy forwarded) counts toward the account-creation limit.
    func register(_ request: RegisterRequest, userAgent: String? = nil, clientAddress: ClientAddress? = nil)
        async throws -> AuthResponse
    {
        do {
            try Validation.username(request.username)
            try Validation.password(request.password)
            if let displayName = request.displayName { try Validation.displayName(displayName) }
        } catch {
            throw APIError.validation(error)
        }
        let limitKey = clientAddress?.limitKey ?? "local"
        try await limits.take(limits.accounts, key: limitKey, refusal: "Too many accounts created from this address")
        do {
            return try await createAccount(request, userAgent: userAgent)
        } catch {
            // Only accounts created count (a taken name, a failed write do not).
            limits.giveBack(limits.accounts, key: limitKey)
            throw error
        }
    }

    private func createAccount(_ request: RegisterRequest, userAgent: String?) async throws -> AuthResponse {
        let now = now()
        let token = SessionTokens.generate()
        let account = NewAccount(
            username: request.username, displayName: request.displayName ?? request.username,
            passwordHash: try await hasher.hash(request.password), createdAt: now)
        let session = NewSession(
            userId: 0, tokenHash: SessionTokens.hash(token), createdAt: now, expiresAt: tokenExpiry(from: now),
            userAgent: Self.clipped(userAgent))
        guard let user = try await store.createAccount(account, session: session) else {
            throw APIError(
                .conflict, APIErrorCode.usernameTaken, "The username \(request.username) is taken.", field: "username")
        }
        return AuthResponse(user: user, token: token)
    }

    /// A new session for the right password, checked under the login throttle
    /// (`LoginThrottle`): guesses are limited per username and address and per address, and
    /// slowed per username, never refused to the owner's own address.
    func login(_ request: LoginRequest, userAgent: String? = nil, clientAddress: ClientAddress? = nil) async throws
        -> AuthResponse
    {
        let attempt = try await loginThrottle.begin(username: request.username, from: clientAddress)
        // A name no account can have is wrong without a look or a hash (nothing to time).
        guard Validation.isPossibleUsername(request.username) else { throw Self.wrongCredentials }
        let credentials = try await store.credentials(usernameKey: Validation.usernameKey(request.username))
        // The hash is checked even for an unknown name, at the same cost, so both take as long.
        guard try await hasher.verify(request.password, hash: credentials?.passwordHash), let credentials else {
            throw Self.wrongCredentials
        }
        loginThrottle.succeeded(attempt)
        // Said only to whoever knows the password.
        if credentials.suspended { throw Self.suspended }
        let now = now()
        let token = SessionTokens.generate()
        let session = NewSession(
            userId: credentials.userId, tokenHash: SessionTokens.hash(token), createdAt: now,
            expiresAt: tokenExpiry(from: now),
            userAgent: Self.clipped(userAgent))
        guard let user = try await store.createSession(session) else {
            // Suspended since the credentials were read, or gone.
            let current = try await store.credentials(usernameKey: Validation.usernameKey(request.username))
            throw current?.suspended == true ? Self.suspended : Self.accountGone
        }
        return AuthResponse(user: user, token: token)
    }

    static let wrongCredentials = APIError(
        .unauthorized, APIErrorCode.invalidCredentials, "The username or password is wrong.")
    static let suspended = APIError(
        .forbidden, APIErrorCode.accountSuspended, "This account is suspended by the server's operators.")

    /// Ends the viewer's session, on this instance's cache too.
    func logout(_ viewer: Viewer) async throws {
        try await store.deleteSession(tokenHash: viewer.tokenHash)
        sessions.remove(viewer.tokenHash)
        await bus?.publishSessionsEnded(userId: viewer.id)
        await streams?.sessionsEnded(userId: viewer.id, store: store)
    }

    /// The viewer's own account, with whether it is an operator.
    func me(_ viewer: Viewer) async throws -> User {
        guard var user = try await store.user(id: viewer.id) else { throw Self.accountGone }
        user.operator = try await store.isOperator(userId: viewer.id)
        return user
    }

    /// Someone's profile as the viewer sees it.
    func user(named username: String, viewer: Viewer) async throws -> User {
        guard let user = try await store.user(usernameKey: try UsernameLookup.key(username), viewer: viewer.id) else {
            throw APIError.userNotFound(username)
        }
        return user
    }

    /// The viewer a bearer token belongs to, or a 401 (unknown, logged out, expired).
    /// `accepting` `.bySendWrite` (the send route): a session cached while other instances
    /// share the database is taken as it is, and the send's write confirms it.
    ///
    /// Tokens are never compared as text: the token is hashed (SHA-256) and the digest looked
    /// up, so the time a lookup takes says nothing about how much of a guess was right.
    func viewer(token: String, accepting accepted: SessionConfirmation = .byRead) async throws -> Viewer {
        guard !token.isEmpty, token.utf8.count <= 256 else { throw APIError.invalidToken }
        let hash = SessionTokens.hash(token)
        let session: SessionInfo
        let confirmation: SessionConfirmation
        // Alone on its database the instance ends every session itself, so its cache is as
        // good as a read. On a shared database only sends use the cache (and fill it): their
        // write confirms the session.
        let cacheConfirms = !sessions.sharedDatabase
        let cacheUsable = cacheConfirms || accepted == .bySendWrite
        if let cached = sessions.session(for: hash), cacheUsable {
            session = cached
            confirmation = cacheConfirms ? .byRead : .bySendWrite
        } else {
            session = try await storedSession(hash, remember: cacheUsable)
            confirmation = .byRead
        }
        let now = now()
        guard session.expiresAt > now else { throw APIError.expiredToken }
        if useRecorder.shouldRecord(session: session.publicId, stored: session.lastUsedAt, now: now) {
            // Last use is informational: a failed write does not fail the request.
            try? await store.touchSession(publicId: session.publicId, at: now)
        }
        return Viewer(
            id: session.userId, username: session.username, tokenHash: hash, sessionId: session.publicId,
            sessionConfirmation: confirmation)
    }

    /// Throws 401 unless the viewer's session is still stored and unexpired, read from storage
    /// (not the cache): a long-poll asks before it answers, so a session that ended meanwhile
    /// (logout, revocation, suspension, deletion) is answered no events read after it ended.
    func stillSignedIn(_ viewer: Viewer) async throws {
        let session = try await storedSession(viewer.tokenHash, remember: false)
        guard session.userId == viewer.id else { throw APIError.invalidToken }
        guard session.expiresAt > now() else { throw APIError.expiredToken }
    }

    /// The viewer with its session confirmed by a read of storage, for a send that reads on
    /// the viewer's behalf before its write.
    func confirmed(_ viewer: Viewer) async throws -> Viewer {
        guard viewer.sessionConfirmation == .bySendWrite else { return viewer }
        let session = try await storedSession(viewer.tokenHash, remember: true)
        guard session.userId == viewer.id else { throw APIError.invalidToken }
        guard session.expiresAt > now() else { throw APIError.expiredToken }
        var confirmed = viewer
        confirmed.sessionConfirmation = .byRead
        return confirmed
    }

    /// The session stored under `hash` (401 if none, and forgotten by the cache), remembered
    /// in the cache when `remember`.
    private func storedSession(_ hash: [UInt8], remember: Bool) async throws -> SessionInfo {
        guard let stored = try await store.session(tokenHash: hash) else {
            sessions.remove(hash)
            throw APIError.invalidToken
        }
        if remember { sessions.store(stored, for: hash) }
        return stored
    }

    /// When a token issued at `start` stops working.
    func tokenExpiry(from start: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: start.millisecondsSince1970 + tokenLifetime.milliseconds)
    }

    static let accountGone = APIError(.notFound, APIErrorCode.userNotFound, "This account no longer exists.")
}
