/// A message that can become a tombstone, and what a tombstone is, written once for the
/// server's `Message` and the client's `LocalMessage` (the web client has the same rules in
/// `message-state.js`).
///
/// A tombstone keeps its id, its people, its time and its place in the conversation; its
/// text, media and reactions are gone and it is `deleted`. Its sender unsent it (or deleted
/// their account), or the operators took it down: then it is also `removedByOperators`, a
/// mark that stays once set (a take-down marks a message its sender had unsent already).
public protocol Tombstonable {
    var text: String { get set }
    var media: [Media] { get set }
    var reactions: [MessageReaction] { get set }
    var deleted: Bool { get set }
    var removedByOperators: Bool { get set }
}

extension Tombstonable {
    /// Whether it is a tombstone already, and one the operators made when `byOperators`:
    /// making it one again (`tombstone(byOperators:)`) would change nothing.
    public func isTombstone(byOperators: Bool = false) -> Bool {
        deleted && (removedByOperators || !byOperators)
    }

    /// It as a tombstone; `byOperators` marks it taken down.
    public func tombstone(byOperators: Bool = false) -> Self {
        var copy = self
        copy.text = ""
        copy.media = []
        copy.reactions = []
        copy.deleted = true
        copy.removedByOperators = removedByOperators || byOperators
        return copy
    }

    /// What a tombstone shows instead of its text: "removed by the operators" for a
    /// take-down, else "message unsent".
    public var tombstoneNote: String { removedByOperators ? "removed by the operators" : "message unsent" }
}
