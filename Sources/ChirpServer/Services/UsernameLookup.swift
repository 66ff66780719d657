import ChirpModels

/// How a username named in a request is looked up: by its key (usernames are unique ignoring
/// case), and a name no account can have is a 404 without asking storage.
///
/// A deleted account keeps its conversations for the people it talked with, under
/// `deleted-ID` (its key too): `conversationKey` finds it (history, read markers),
/// `recipientKey` refuses to send there (403 `dm_not_allowed`), and `key` (profiles, follows,
/// blocks, reports) does not know it.
enum UsernameLookup {
    static func key(_ username: String) throws -> String {
        guard Validation.isPossibleUsername(username) else { throw APIError.userNotFound(username) }
        return Validation.usernameKey(username)
    }

    /// The key of a conversation's peer, a deleted account's placeholder included.
    static func conversationKey(_ username: String) throws -> String {
        if Validation.isDeletedAccountName(username) { return username }
        return try key(username)
    }

    /// The key of someone to send to (or type to); a deleted account is 403 `dm_not_allowed`.
    static func recipientKey(_ username: String) throws -> String {
        guard Validation.isPossibleUsername(username) else {
            if Validation.isDeletedAccountName(username) { throw deletedRecipient }
            throw APIError.userNotFound(username)
        }
        return Validation.usernameKey(username)
    }

    static let deletedRecipient = APIError(
        .forbidden, APIErrorCode.dmNotAllowed,
        "This account was deleted: its conversation can be read, but nothing can be sent to it.")
}
