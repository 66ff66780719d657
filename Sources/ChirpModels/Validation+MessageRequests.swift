/// The rules of message requests' settings, shared by the server and clients.
extension Validation {
    /// Checks a `messageRequests` setting: `followers` or `everyone` (422 `invalid_setting`).
    public static func messageRequestPolicy(_ value: String) throws(ValidationError) -> MessageRequestPolicy {
        guard let policy = MessageRequestPolicy(rawValue: value) else {
            throw ValidationError(
                code: APIErrorCode.invalidSetting, field: "messageRequests",
                message: "messageRequests is 'followers' or 'everyone'.")
        }
        return policy
    }
}
