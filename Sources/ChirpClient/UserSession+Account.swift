import ChirpModels

/// Account security through the façade: the user's sessions, ending one, changing the
/// password. (Deleting the account is `AccountManager.deleteAccount`, which also wipes the
/// local data, as logging out does.)
extension UserSession {
    /// The user's sessions on the server, newest first, this one marked `current`.
    public func sessions() async throws -> [SessionSummary] {
        try await api.send(ChirpEndpoints.ListSessions()).items
    }

    /// Ends one of the user's sessions (its token stops working at once).
    public func endSession(_ id: String) async throws {
        _ = try await api.send(ChirpEndpoints.EndSession(id))
    }

    /// Changes the password; every other session of the user ends, this one stays.
    public func changePassword(current: String, new: String) async throws {
        _ = try await api.send(
            ChirpEndpoints.ChangePassword(ChangePasswordRequest(currentPassword: current, newPassword: new)))
    }
}
