import ChirpModels

/// Account security: the viewer's sessions, ending one, changing the password and deleting the
/// account. Every ended session stops working at once on every instance: this instance's cache
/// forgets the user's sessions and the cluster bus tells the others to do the same.
extension AccountService {
    /// The viewer's sessions, newest first, the current one marked.
    func sessionList(_ viewer: Viewer) async throws -> SessionList {
        let stored = try await store.sessions(userId: viewer.id, now: now())
        return SessionList(
            items: stored.map {
                SessionSummary(
                    id: $0.publicId, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, userAgent: $0.userAgent,
                    current: $0.publicId == viewer.sessionId)
            })
    }

    /// Ends one of the viewer's sessions (the current one too, if named); 404 for an id that is
    /// not one of theirs.
    func endSession(_ viewer: Viewer, id: String) async throws {
        guard id.utf8.count <= 64, try await store.deleteSession(userId: viewer.id, publicId: id) else {
            throw APIError(.notFound, APIErrorCode.sessionNotFound, "You have no session with this id.")
        }
        await sessionsEnded(userId: viewer.id)
    }

    /// Sets a new password after checking the current one (a wrong one counts toward the login
    /// throttle); every other session of the user ends.
    func changePassword(_ viewer: Viewer, _ request: ChangePasswordRequest, clientAddress: ClientAddress? = nil)
        async throws
    {
        do {
            try Validation.password(request.newPassword)
        } catch {
            throw APIError.validation(error)
        }
        try await checkPassword(request.currentPassword, of: viewer, from: clientAddress)
        let hash = try await hasher.hash(request.newPassword)
        try await store.changePassword(userId: viewer.id, passwordHash: hash, keeping: viewer.sessionId)
        await sessionsEnded(userId: viewer.id)
    }

    /// Deletes the viewer's account after checking the password (see `AccountStore.deleteAccount`)
    /// and wakes whoever got `user.deleted`.
    func deleteAccount(_ viewer: Viewer, _ request: DeleteAccountRequest, clientAddress: ClientAddress? = nil)
        async throws
    {
        try await checkPassword(request.password, of: viewer, from: clientAddress)
        let notice = try APIJSON.encode(UserDeletedNotice(username: viewer.username))
        guard
            let outcome = try await store.deleteAccount(
                userId: viewer.id, at: now(), notice: notice, groups: groupRules)
        else {
            throw Self.accountGone
        }
        hub?.publish(outcome.appended)
        await sessionsEnded(userId: viewer.id)
    }

    /// A password given again by a logged-in user, checked like a login: under the login
    /// throttle, and a wrong one is a failure that counts.
    private func checkPassword(_ password: String, of viewer: Viewer, from clientAddress: ClientAddress?) async throws {
        let attempt = try await loginThrottle.begin(username: viewer.username, from: clientAddress)
        let credentials = try await store.credentials(usernameKey: Validation.usernameKey(viewer.username))
        guard try await hasher.verify(password, hash: credentials?.passwordHash), credentials?.userId == viewer.id
        else {
            throw APIError(.unauthorized, APIErrorCode.invalidCredentials, "The password is wrong.", field: "password")
        }
        loginThrottle.succeeded(attempt)
    }

    /// Sessions of `userId` ended (also by a suspension): this instance's cache and every
    /// other instance's forget them, and their event streams close.
    func sessionsEnded(userId: Int64) async {
        sessions.removeAll(userId: userId)
        await bus?.publishSessionsEnded(userId: userId)
        await streams?.sessionsEnded(userId: userId, store: store)
    }

    /// A `User-Agent` as stored: at most 256 characters, nil when empty.
    static func clipped(_ userAgent: String?) -> String? {
        guard let userAgent, !userAgent.isEmpty else { return nil }
        return String(userAgent.prefix(256))
    }
}
