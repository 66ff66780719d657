/// The error codes of message requests (API.md part 3).
extension APIErrorCode {
    /// Accepting or declining when that user has no pending request to the viewer (404).
    public static let requestNotFound = "request_not_found"
    /// A setting with a value it cannot take (422), its name in `field`.
    public static let invalidSetting = "invalid_setting"
}
