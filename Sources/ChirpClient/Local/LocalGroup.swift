import ChirpModels
import ChirpPersistence

/// A group this user is (or was) in, as last heard from the server: its title and members
/// with their roles. Its conversation is the `ConversationSummary` under
/// `ConversationKey.group(id)`; its messages are `LocalMessage`s with that `peer`.
public struct LocalGroup: StoredRecord {
    public static let tableName = "groups"

    /// The group's server id.
    public var id: String
    public var title: String
    public var createdBy: String
    public var createdAt: String
    /// The current members, longest-standing first.
    public var members: [GroupMember]
    /// This user was removed or left (`group.removed`): what they saw stays readable, and
    /// nothing more can be sent.
    public var left: Bool
    /// Encrypted (API.md part 4): only the members' devices read its messages.
    public var encrypted: Bool

    /// A group as the server sent it.
    public init(_ group: Group) {
        id = group.id
        title = group.title
        createdBy = group.createdBy
        createdAt = group.createdAt.rfc3339
        members = group.members
        left = false
        encrypted = group.encrypted
    }

    /// The conversation's key (`ConversationKey`).
    public var key: String { ConversationKey.group(id) }

    /// The admins' usernames.
    public var admins: [String] { members.filter { $0.role == .admin }.map(\.user.username) }

    /// Whether `username` is an admin.
    public func isAdmin(_ username: String) -> Bool { admins.contains { $0.lowercased() == username.lowercased() } }
}

extension ClientDatabase {
    /// The local schema of group conversations (issue 38): groups, and the read count of a
    /// group message with the readers the event stream named.
    static let groupMigrations: [SQLiteStore.Migration] = [
        .init(
            name: "v7-groups",
            sql: """
                CREATE TABLE groups (
                    id TEXT PRIMARY KEY, title TEXT NOT NULL, createdBy TEXT NOT NULL, createdAt TEXT NOT NULL,
                    members TEXT NOT NULL DEFAULT '[]', "left" INTEGER NOT NULL DEFAULT 0);
                ALTER TABLE messages ADD COLUMN readCount INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE messages ADD COLUMN readers TEXT NOT NULL DEFAULT '[]';
                """)
    ]
}
