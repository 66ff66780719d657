import ChirpModels

/// The viewer's settings (`GET` and `PATCH /v1/me/settings`): who may start a conversation
/// with them (`messageRequests`, API.md part 3). The setting is a fact each send to the user
/// reads with the others (`RecipientFacts.takesRequests`); `MessageRules` applies it.
struct SettingsService: Sendable {
    let store: any MessageRequestStore

    /// The viewer's settings.
    func settings(_ viewer: Viewer) async throws -> UserSettings {
        guard let takes = try await store.takesMessageRequests(userId: viewer.id) else {
            throw StorageError.inconsistent("user \(viewer.id) is missing")
        }
        return UserSettings(messageRequests: takes ? .everyone : .followers)
    }

    /// Changes the settings `update` names (422 `invalid_setting` for a value a setting cannot
    /// take, nothing changed) and returns them all.
    func update(_ viewer: Viewer, _ update: SettingsUpdate) async throws -> UserSettings {
        if let raw = update.messageRequests {
            let policy: MessageRequestPolicy
            do { policy = try Validation.messageRequestPolicy(raw) } catch { throw APIError.validation(error) }
            try await store.setTakesMessageRequests(userId: viewer.id, policy == .everyone)
        }
        return try await settings(viewer)
    }
}
