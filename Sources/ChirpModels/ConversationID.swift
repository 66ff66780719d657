/// The id an envelope binds to (API.md part 4): `d:` and the two users' ids sorted as strings
/// and joined by `:` for a direct conversation (users 10 and 9: `d:10:9`), `g:` and the group's
/// id for a group, which is also the group's `ConversationKey`. (A direct conversation's key is
/// the other person's username, different at its two ends; its envelope id is the same at both.)
public struct ConversationID: Sendable, Hashable, CustomStringConvertible {
    /// The id as the envelope's associated data, HPKE info and signature spell it.
    public let rawValue: String

    private init(rawValue: String) { self.rawValue = rawValue }

    /// The direct conversation between the users with ids `first` and `second`, in either order.
    public static func direct(_ first: String, _ second: String) -> ConversationID {
        // Byte order of the UTF-8, as JavaScript sorts the same (decimal) ids.
        let inOrder = !second.utf8.lexicographicallyPrecedes(first.utf8)
        let (low, high) = inOrder ? (first, second) : (second, first)
        return ConversationID(rawValue: "d:\(low):\(high)")
    }

    /// The group with id `id`.
    public static func group(_ id: String) -> ConversationID { ConversationID(rawValue: ConversationKey.group(id)) }

    public var description: String { rawValue }
}
