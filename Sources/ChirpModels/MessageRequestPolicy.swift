/// Who may start a conversation with a user (API.md part 3, "Message requests"): only those
/// part 1's rule allows (`followers`: the user follows them, or has messaged them), or
/// `everyone`, whose messages that part 1's rule would refuse arrive as a request.
public enum MessageRequestPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    case followers, everyone
}
