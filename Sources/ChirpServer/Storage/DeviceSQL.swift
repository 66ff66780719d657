/// The device statements written once for both databases (`StorageEngine+Devices`).
enum DeviceSQL {
    static let columns = """
        d.id AS d_id, d.name AS d_name, d.identity_key AS d_identity_key, d.encryption_key AS d_encryption_key,
            d.key_signature AS d_key_signature, d.created_at AS d_created_at
        """

    /// The users told when user `$1`'s devices change (`device.changed`): the user (their
    /// other devices seal to the new one too), the other person of each of their encrypted
    /// direct conversations, and the current members of each encrypted group they are in.
    static let watchers = """
        SELECT id FROM users WHERE id = $1
        UNION SELECT CASE WHEN e.user_lo = $1 THEN e.user_hi ELSE e.user_lo END FROM encrypted_direct e
            WHERE e.user_lo = $1 OR e.user_hi = $1
        UNION SELECT other.user_id FROM group_members mine
            JOIN chat_groups g ON g.id = mine.group_id AND g.encrypted_at IS NOT NULL
            JOIN group_members other ON other.group_id = mine.group_id AND other.removed_at IS NULL
            WHERE mine.user_id = $1 AND mine.removed_at IS NULL
        """

    /// The devices of users `$1` and `$2`, with their usernames (a user without one once, with
    /// NULL device columns).
    static let ofPair = """
        SELECT u.username AS username, \(columns)
        FROM users u LEFT JOIN devices d ON d.user_id = u.id WHERE u.id IN ($1, $2) ORDER BY d.created_at, d.id
        """

    /// The devices of group `$1`'s current members, as `ofPair`.
    static let ofGroup = """
        SELECT u.username AS username, \(columns)
        FROM group_members gm JOIN users u ON u.id = gm.user_id LEFT JOIN devices d ON d.user_id = u.id
        WHERE gm.group_id = $1 AND gm.removed_at IS NULL ORDER BY d.created_at, d.id
        """
}
