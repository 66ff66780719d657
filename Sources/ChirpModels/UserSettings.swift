/// A user's settings (`GET` and `PATCH /v1/me/settings`, API.md part 3).
public struct UserSettings: Sendable, Hashable, Codable {
    /// Who may start a conversation with the user; `followers` by default.
    public var messageRequests: MessageRequestPolicy

    public init(messageRequests: MessageRequestPolicy = .followers) {
        self.messageRequests = messageRequests
    }
}

/// `PATCH /v1/me/settings` body: the settings to change, each optional (absent: unchanged;
/// `null` is not a value, and fails to decode). Values are kept as text, so that an unknown
/// word is a 422 naming the field rather than malformed JSON.
public struct SettingsUpdate: Sendable, Hashable, Codable {
    /// `followers` or `everyone`.
    public var messageRequests: String?

    public init(messageRequests: String? = nil) {
        self.messageRequests = messageRequests
    }

    enum CodingKeys: String, CodingKey { case messageRequests }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageRequests =
            container.contains(.messageRequests) ? try container.decode(String.self, forKey: .messageRequests) : nil
    }
}
