/// A rule of API.md that a value breaks: the error code, the field, and a sentence for people.
public struct ValidationError: Error, Sendable, Hashable {
    public var code: String
    public var field: String
    public var message: String

    public init(code: String, field: String, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }
}

/// The input rules of the Chirp API, shared by the server (which enforces them) and clients
/// (which check before sending). Lengths count Unicode code points, as JSON Schema's
/// `maxLength` does, so that `openapi.yaml` states the same limits exactly.
public enum Validation {
    public static let usernameLength = 3...15
    public static let passwordLength = 8...128
    public static let displayNameLength = 0...50
    public static let messageLength = 1...10_000
    public static let tweetLength = 1...280
    public static let clientIdLength = 1...64
    public static let pageLimit = 1...100
    public static let defaultPageLimit = 50
    public static let eventsLimit = 1...1000
    public static let defaultEventsLimit = 100
    public static let longPollWaitSeconds = 0...30
    public static let reportNoteLength = 0...1000

    /// Checks a username: 3–15 of `[A-Za-z0-9_]`.
    public static func username(_ value: String) throws(ValidationError) {
        guard usernameLength.contains(value.utf8.count), value.utf8.allSatisfy(isUsernameByte) else {
            throw ValidationError(
                code: "invalid_username", field: "username",
                message: "A username is 3 to 15 letters, digits or underscores.")
        }
    }

    /// Whether `value` names a deleted account as its peers see it: `deleted-` and the
    /// account's id (API.md part 2; no username has a hyphen, so none is taken for one).
    public static func isDeletedAccountName(_ value: String) -> Bool {
        let prefix = deletedAccountPrefix
        guard value.hasPrefix(prefix) else { return false }
        let digits = value.utf8.dropFirst(prefix.utf8.count)
        return (1...19).contains(digits.count) && digits.allSatisfy { (0x30...0x39).contains($0) }
            && digits.first != 0x30
    }

    /// What a deleted account's name starts with.
    public static let deletedAccountPrefix = "deleted-"

    /// The display name of a deleted account.
    public static let deletedAccountDisplayName = "Deleted account"

    /// Whether a string could be a username (used to answer 404 early for impossible names).
    public static func isPossibleUsername(_ value: String) -> Bool {
        usernameLength.contains(value.utf8.count) && value.utf8.allSatisfy(isUsernameByte)
    }

    /// Checks a password: 8–128 characters, no NUL (U+0000). (Every character counts: the
    /// server does not hand bcrypt the password itself, see its `PasswordHasher`.)
    public static func password(_ value: String) throws(ValidationError) {
        guard passwordLength.contains(value.unicodeScalars.count), !value.unicodeScalars.contains("\u{0}") else {
            throw ValidationError(
                code: "invalid_password", field: "password",
                message: "A password is 8 to 128 characters long, without NUL characters.")
        }
    }

    /// Checks a display name: 0–50 characters, no control characters.
    public static func displayName(_ value: String) throws(ValidationError) {
        guard displayNameLength.contains(value.unicodeScalars.count),
            !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ValidationError(
                code: "invalid_display_name", field: "displayName",
                message: "A display name is at most 50 characters, without control characters.")
        }
    }

    /// Trims surrounding whitespace and checks a message text: 1–10,000 characters.
    /// Returns the text to store.
    public static func messageText(_ value: String) throws(ValidationError) -> String {
        try text(value, limit: messageLength, what: "A message")
    }

    /// Trims surrounding whitespace and checks a tweet text: 1–280 characters.
    /// Returns the text to store.
    public static func tweetText(_ value: String) throws(ValidationError) -> String {
        try text(value, limit: tweetLength, what: "A tweet")
    }

    /// Checks a report's reason: one of `ReportReason`'s raw values.
    public static func reportReason(_ value: String) throws(ValidationError) -> ReportReason {
        guard let reason = ReportReason(rawValue: value) else {
            throw ValidationError(
                code: "invalid_reason", field: "reason", message: "A report's reason is spam, abuse or other.")
        }
        return reason
    }

    /// Checks a report's note: at most 1,000 characters, without NUL.
    public static func reportNote(_ value: String) throws(ValidationError) {
        guard reportNoteLength.contains(value.unicodeScalars.count), !containsNUL(value) else {
            throw ValidationError(
                code: "invalid_note", field: "note",
                message: "A report's note is at most 1,000 characters, without NUL characters.")
        }
    }

    /// Checks a client-chosen id (`clientMessageId`, `clientTweetId`): 1–64 of `[A-Za-z0-9_-]`.
    public static func isValidClientId(_ value: String) -> Bool {
        clientIdLength.contains(value.utf8.count)
            && value.utf8.allSatisfy { isUsernameByte($0) || $0 == UInt8(ascii: "-") }
    }

    /// Parses a server-issued id (`"42"`): 1–18 decimal digits without a leading zero.
    public static func parseId(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard (1...18).contains(bytes.count), bytes[0] != UInt8(ascii: "0"),
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int64(text)
    }

    /// The key under which usernames are unique: the name ignoring case.
    public static func usernameKey(_ username: String) -> String {
        String(decoding: username.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private static func text(
        _ value: String, limit: ClosedRange<Int>, what: String
    ) throws(ValidationError) -> String {
        let trimmed = value.trimmingSurroundingWhitespace()
        if trimmed.isEmpty {
            throw ValidationError(
                code: "empty_text", field: "text", message: "\(what) needs some text.")
        }
        guard trimmed.unicodeScalars.count <= limit.upperBound else {
            throw ValidationError(
                code: "text_too_long", field: "text",
                message: "\(what) is at most \(limit.upperBound) characters.")
        }
        guard !containsNUL(trimmed) else {
            throw ValidationError(
                code: "invalid_text", field: "text", message: "\(what) cannot contain NUL characters (U+0000).")
        }
        return trimmed
    }

    /// Whether a string holds U+0000, which no stored text may contain (PostgreSQL cannot
    /// store it at all, so neither storage accepts it).
    public static func containsNUL(_ value: String) -> Bool {
        value.utf8.contains(0)
    }

    private static func isUsernameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

extension String {
    /// The string without leading and trailing whitespace: Unicode `White_Space` plus the
    /// information separators U+001C–U+001F, which most regex engines also treat as space.
    public func trimmingSurroundingWhitespace() -> String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[first...last])
    }
}
