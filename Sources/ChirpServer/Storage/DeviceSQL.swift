/// The device statements written once for both databases (`StorageEngine+Devices`).
enum DeviceSQL {
    static let columns = """
        d.id AS d_id, d.name AS d_name, d.identity_key AS d_identity_key, d.encryption_key AS d_encryption_key,
            d.key_signature AS d_key_signature, d.created_at AS d_created_at
        """

    /// The users told when user `$1`'s devices change (`device.changed`): the user, on their
    /// other devices. (Until conversations can be encrypted no one else seals to them.)
    static let watchers = "SELECT id FROM users WHERE id = $1"

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
