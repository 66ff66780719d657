import ChirpModels

extension APIError {
    /// The one place where a storage failure becomes an API error: a database that cannot
    /// serve is a 503 with `Retry-After` (clients retry with the same ids).
    init(_ error: StorageError) {
        switch error {
        case .unavailable:
            self = .databaseUnavailable
        case .unstorableText:
            self = APIError(
                .unprocessableContent, APIErrorCode.validationFailed,
                "The request holds a character that cannot be stored (such as U+0000).")
        case .inconsistent:
            self = APIError(.internalServerError, APIErrorCode.internalError, "Something went wrong on the server.")
        }
    }
}
