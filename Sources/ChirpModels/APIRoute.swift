/// The endpoints of the Chirp HTTP API, version 1: one value per call, with its method and path
/// template. The server registers its routes from these and clients build their requests from
/// them, so both sides share one definition.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// An HTTP method the API uses.
    public enum Method: String, Sendable, Hashable {
        case get = "GET", post = "POST", put = "PUT", delete = "DELETE", patch = "PATCH"
    }

    public var method: Method
    /// The path with `{name}` placeholders, as written in API.md and `openapi.yaml`.
    public var template: String
    /// Whether the call needs `Authorization: Bearer <token>`.
    public var requiresAuth: Bool

    public init(_ method: Method, _ template: String, requiresAuth: Bool = true) {
        self.method = method
        self.template = template
        self.requiresAuth = requiresAuth
    }

    public var description: String { "\(method.rawValue) \(template)" }

    /// The path with each `{name}` replaced by the percent-encoded value for `name`.
    public func path(_ parameters: [String: String] = [:]) -> String {
        var result = template
        for (name, value) in parameters {
            let encoded = value.addingPercentEncodingForPathSegment()
            result = result.replacingOccurrences(of: "{\(name)}", with: encoded)
        }
        return result
    }

    public static let createAccount = APIRoute(.post, "/v1/accounts", requiresAuth: false)
    public static let login = APIRoute(.post, "/v1/sessions", requiresAuth: false)
    public static let logout = APIRoute(.delete, "/v1/sessions/current")
    public static let me = APIRoute(.get, "/v1/me")
    public static let user = APIRoute(.get, "/v1/users/{username}")
    public static let follow = APIRoute(.put, "/v1/users/{username}/follow")
    public static let unfollow = APIRoute(.delete, "/v1/users/{username}/follow")
    public static let followers = APIRoute(.get, "/v1/users/{username}/followers")
    public static let following = APIRoute(.get, "/v1/users/{username}/following")
    public static let conversations = APIRoute(.get, "/v1/conversations")
    public static let sendMessage = APIRoute(.put, "/v1/conversations/{username}/messages/{clientMessageId}")
    public static let messages = APIRoute(.get, "/v1/conversations/{username}/messages")
    public static let markRead = APIRoute(.post, "/v1/conversations/{username}/read")
    public static let typing = APIRoute(.post, "/v1/conversations/{username}/typing")
    public static let putTweet = APIRoute(.put, "/v1/tweets/{clientTweetId}")
    public static let deleteTweet = APIRoute(.delete, "/v1/tweets/{id}")
    public static let userTweets = APIRoute(.get, "/v1/users/{username}/tweets")
    public static let timeline = APIRoute(.get, "/v1/timeline")
    public static let events = APIRoute(.get, "/v1/events")
    public static let block = APIRoute(.put, "/v1/users/{username}/block")
    public static let unblock = APIRoute(.delete, "/v1/users/{username}/block")
    public static let blocks = APIRoute(.get, "/v1/me/blocks")
    public static let report = APIRoute(.post, "/v1/reports")
    public static let logs = APIRoute(.post, "/v1/logs")
    public static let eventsStream = APIRoute(.get, "/v1/events/stream")
    public static let health = APIRoute(.get, "/healthz", requiresAuth: false)
    public static let metrics = APIRoute(.get, "/metrics", requiresAuth: false)
    public static let openAPI = APIRoute(.get, "/openapi.yaml", requiresAuth: false)
    // Accounts and sessions (API.md part 2).
    public static let sessions = APIRoute(.get, "/v1/sessions")
    public static let endSession = APIRoute(.delete, "/v1/sessions/{id}")
    public static let changePassword = APIRoute(.put, "/v1/me/password")
    public static let deleteAccount = APIRoute(.delete, "/v1/me")
    // Media (API.md part 2).
    public static let uploadMedia = APIRoute(.put, "/v1/media/{clientMediaId}")
    public static let mediaUploadStatus = APIRoute(.get, "/v1/media/{clientMediaId}/upload")
    public static let downloadMedia = APIRoute(.get, "/v1/media/{id}")
    // Message actions and search (API.md part 2).
    public static let addReaction = APIRoute(
        .put, "/v1/conversations/{username}/messages/{messageId}/reactions/{emoji}")
    public static let removeReaction = APIRoute(
        .delete, "/v1/conversations/{username}/messages/{messageId}/reactions/{emoji}")
    public static let editMessage = APIRoute(.patch, "/v1/conversations/{username}/messages/{messageId}")
    public static let unsendMessage = APIRoute(.delete, "/v1/conversations/{username}/messages/{messageId}")
    public static let searchMessages = APIRoute(.get, "/v1/search/messages")

    /// Every route this version of the server answers. (A part-2 route joins this list in the
    /// change that registers it on the server.)
    public static let all: [APIRoute] =
        [
            createAccount, login, logout, me, user, follow, unfollow, followers, following,
            conversations, sendMessage, messages, markRead, typing, putTweet, deleteTweet,
            userTweets, timeline, events, eventsStream, logs, health, metrics, openAPI,
            block, unblock, blocks, report,
            sessions, endSession, changePassword, deleteAccount,
            addReaction, removeReaction, editMessage, unsendMessage, searchMessages,
            uploadMedia, mediaUploadStatus, downloadMedia,
        ] + moderation + export + conversationMarks + messageRequests + groups + push + devices + encryption
}

extension String {
    /// Percent-encodes everything but RFC 3986 unreserved characters.
    func addingPercentEncodingForPathSegment() -> String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}
