import ChirpModels
import HTTPTypes

/// A failure the API reports to the caller: an HTTP status and the error envelope of API.md.
///
/// Everything a service or a route rejects is thrown as an `APIError` (storage throws
/// `StorageError`, mapped by `APIError.init(_: StorageError)`); the `ErrorEnvelopeMiddleware`
/// turns it into a response.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var field: String?
    /// Seconds for the `Retry-After` header (429 and 503).
    var retryAfter: Int?
    /// `devices_changed`'s current devices of each member (API.md part 4).
    var devices: [String: [Device]]?

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, field: String? = nil, retryAfter: Int? = nil)
    {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    var body: APIErrorBody { APIErrorBody(code: code, message: message, field: field, devices: devices) }

    static func badParameter(_ field: String, _ message: String) -> APIError {
        APIError(.badRequest, APIErrorCode.invalidParameter, message, field: field)
    }

    static func validation(_ error: ValidationError) -> APIError {
        APIError(.unprocessableContent, error.code, error.message, field: error.field)
    }

    /// A direct message the recipient has not allowed (no follow, no earlier message from them).
    static func dmNotAllowed(_ recipient: String) -> APIError {
        APIError(
            .forbidden, APIErrorCode.dmNotAllowed,
            "You can message \(recipient.prefix(32)) once they follow you or have messaged you.")
    }

    /// A message to, or a follow of, someone the viewer has blocked.
    static func youBlocked(_ username: String) -> APIError {
        APIError(.forbidden, APIErrorCode.blocked, "You have blocked \(username.prefix(32)); unblock them first.")
    }

    /// A follow of someone who has blocked the viewer.
    static func blockedBy(_ username: String) -> APIError {
        APIError(.forbidden, APIErrorCode.blocked, "You cannot follow \(username.prefix(32)).")
    }

    /// A `clientMessageId` already used for a different message.
    static let clientMessageIdReused = APIError(
        .conflict, APIErrorCode.clientIdReused,
        "This clientMessageId was already used for another message; pick a new one.", field: "clientMessageId")

    /// A `clientTweetId` already used for a different tweet.
    static let clientTweetIdReused = APIError(
        .conflict, APIErrorCode.clientIdReused,
        "This clientTweetId was already used for another tweet; pick a new one.", field: "clientTweetId")

    /// The database cannot serve the request right now (unreachable, full, failing I/O);
    /// clients retry after `Retry-After`, with the same ids.
    static let databaseUnavailable = APIError(
        .serviceUnavailable, APIErrorCode.unavailable, "The database is unavailable; retry shortly.", retryAfter: 1)

    /// A media file the disk cannot give right now (missing or unreadable under its record).
    static let mediaFileUnavailable = APIError(
        .serviceUnavailable, APIErrorCode.unavailable, "The media's file cannot be read right now; retry shortly.",
        retryAfter: 1)

    static func userNotFound(_ username: String) -> APIError {
        APIError(.notFound, APIErrorCode.userNotFound, "There is no user named \(username.prefix(32)).")
    }

    static let missingToken = APIError(
        .unauthorized, APIErrorCode.unauthorized,
        "This call needs an 'Authorization: Bearer <token>' header; log in to get a token.")
    static let invalidToken = APIError(
        .unauthorized, APIErrorCode.invalidToken, "The token is not valid (logged out or never issued); log in again.")
    static let expiredToken = APIError(
        .unauthorized, APIErrorCode.tokenExpired, "The token has expired; log in again.")
}
