/// The error codes of the data export (issue 39).
extension APIErrorCode {
    /// `GET /v1/me/export` with no export prepared (never asked for, removed after its
    /// retention, or failed) (404).
    public static let exportNotFound = "export_not_found"
}
