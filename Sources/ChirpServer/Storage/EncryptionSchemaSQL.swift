/// The migration `v27-encrypted-conversations` (issue 55), the same statements on both
/// databases but for the sessions' token hash type:
/// - `devices`: each user's devices, with their public keys as the client sent them
///   (base64url). A device id is the client's, unique across the server (an envelope names
///   devices by id alone); a device ends with the session that registered it (logout,
///   revocation, suspension and account deletion delete sessions);
/// - `encrypted_direct`: the direct conversations turned encrypted, by their two users' ids
///   (lower first); a group's switch is `chat_groups.encrypted_at`. Neither is ever turned off;
/// - `messages.envelope`: an encrypted message's envelope as the sender sent it (API.md part
///   4), its `text` then empty.
enum EncryptionSchemaSQL {
    static let name = "v27-encrypted-conversations"

    /// The statements, with `bytesType` the sessions' token hash type (SQLite `BLOB`,
    /// PostgreSQL `BYTEA`).
    static func statements(bytesType: String) -> [String] {
        [
            """
            CREATE TABLE devices (
                id TEXT PRIMARY KEY,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                session_hash \(bytesType) NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
                name TEXT NOT NULL,
                identity_key TEXT NOT NULL,
                encryption_key TEXT NOT NULL,
                key_signature TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX devices_by_user ON devices(user_id)",
            "CREATE INDEX devices_by_session ON devices(session_hash)",
            """
            CREATE TABLE encrypted_direct (
                user_lo BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                user_hi BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                enabled_at BIGINT NOT NULL,
                PRIMARY KEY (user_lo, user_hi)
            )
            """,
            "ALTER TABLE chat_groups ADD COLUMN encrypted_at BIGINT",
            "ALTER TABLE messages ADD COLUMN envelope TEXT",
        ]
    }
}
