/// The error codes of Web Push subscriptions (API.md part 4).
extension APIErrorCode {
    /// An endpoint that is not `https://` (or plain HTTP to a host the server allows), or
    /// names this machine or a private network (422).
    public static let invalidEndpoint = "invalid_endpoint"
    /// The account has the most subscriptions it may have (409).
    public static let tooManySubscriptions = "too_many_subscriptions"
}
