import ChirpModels
import Hummingbird

/// Accounts and sessions: register, log in, log out, who am I, look someone up.
struct AccountRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>) {
        router.add(.createAccount, services: services, createAccount)
        router.add(.login, services: services, login)
        router.add(.logout, services: services) { _, context in
            let digest = try context.requireViewer().tokenHash
            try await services.storage.deleteSession(tokenHash: digest)
            services.sessions.remove(digest)
            return JSONResponse.noContent()
        }
        router.add(.me, services: services) { _, context in
            try JSONResponse.make(try await services.storage.user(id: try context.requireViewer().id))
        }
        router.add(.user, services: services) { _, context in
            let viewer = try context.requireViewer()
            return try JSONResponse.make(
                try await services.storage.user(username: try context.pathParameter("username"), viewer: viewer.id))
        }
    }

    @Sendable func createAccount(_ request: Request, _ context: ChirpRequestContext) async throws -> Response {
        let body = try await JSONResponse.decode(RegisterRequest.self, from: request, limit: services.configuration.maxBodyBytes)
        do {
            try Validation.username(body.username)
            try Validation.password(body.password)
            if let displayName = body.displayName { try Validation.displayName(displayName) }
        } catch {
            throw APIError.validation(error)
        }
        let now = services.now()
        let token = SessionTokens.generate()
        let account = NewAccount(
            username: body.username, displayName: body.displayName ?? body.username,
            passwordHash: try await services.hasher.hash(body.password), createdAt: now)
        let session = NewSession(userId: 0, tokenHash: SessionTokens.hash(token), createdAt: now, expiresAt: services.tokenExpiry(from: now))
        let user = try await services.storage.createAccount(account, session: session)
        return try JSONResponse.make(AuthResponse(user: user, token: token), status: .created)
    }

    @Sendable func login(_ request: Request, _ context: ChirpRequestContext) async throws -> Response {
        let body = try await JSONResponse.decode(LoginRequest.self, from: request, limit: services.configuration.maxBodyBytes)
        let key = Validation.usernameKey(body.username)
        if let wait = services.loginLimiter.retryAfter(key) {
            throw APIError(
                .tooManyRequests, APIErrorCode.rateLimited,
                "Too many failed logins for this username; try again in \(wait) seconds.", retryAfter: wait)
        }
        let credentials = Validation.isPossibleUsername(body.username)
            ? try await services.storage.credentials(usernameKey: key) : nil
        guard try await services.hasher.verify(body.password, hash: credentials?.passwordHash), let credentials else {
            services.loginLimiter.record(key)
            throw APIError(.unauthorized, APIErrorCode.invalidCredentials, "The username or password is wrong.")
        }
        let now = services.now()
        let token = SessionTokens.generate()
        let user = try await services.storage.createSession(NewSession(
            userId: credentials.userId, tokenHash: SessionTokens.hash(token), createdAt: now,
            expiresAt: services.tokenExpiry(from: now)))
        return try JSONResponse.make(AuthResponse(user: user, token: token), status: .created)
    }
}
