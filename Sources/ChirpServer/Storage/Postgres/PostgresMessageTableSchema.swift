/// One table of messages for every conversation (issue 38), as SQLite's `v22-one-message-table`:
/// a group message becomes a row of `messages` naming its group instead of a recipient, its
/// media links join `message_media`, and client ids stay unique per sender among direct
/// messages and per sender and group among a group's. Ids are kept (both came from the one
/// sequence already). A group message's search words move from its LIKE column to
/// `search_words`, under the direct messages' GIN index (`GroupSearch`).
enum PostgresMessageTableSchema {
    static let migrations: [(name: String, sql: [String])] = [
        (
            "v22-one-message-table",
            [
                """
                ALTER TABLE messages ALTER COLUMN recipient_id DROP NOT NULL, ALTER COLUMN user_lo DROP NOT NULL,
                    ALTER COLUMN user_hi DROP NOT NULL,
                    ADD COLUMN group_id BIGINT REFERENCES chat_groups(id),
                    ADD CONSTRAINT messages_one_conversation CHECK ((group_id IS NULL) = (recipient_id IS NOT NULL))
                """,
                // Client ids are unique per sender among direct messages only from here.
                "ALTER TABLE messages DROP CONSTRAINT messages_sender_id_client_message_id_key",
                "CREATE UNIQUE INDEX messages_by_client_id ON messages(sender_id, client_message_id) WHERE group_id IS NULL",
                """
                INSERT INTO messages (
                    id, sender_id, group_id, client_message_id, text, created_at, deleted,
                    media_json, reply_to, edited_at, reactions, removed_by_operators, search_words)
                SELECT id, sender_id, group_id, client_message_id, text, created_at, deleted,
                    media_json, reply_to, edited_at, reactions, removed_by_operators, string_to_array(trim(words), ' ')
                FROM group_messages
                """,
                "INSERT INTO message_media (message_id, position, media_id) SELECT message_id, position, media_id FROM group_message_media",
                "DROP TABLE group_message_media",
                "DROP TABLE group_messages",
                """
                CREATE UNIQUE INDEX messages_by_group_client_id ON messages(group_id, sender_id, client_message_id)
                    WHERE group_id IS NOT NULL
                """,
                "CREATE INDEX messages_by_group ON messages(group_id, id) WHERE group_id IS NOT NULL",
            ]
        )
    ]
}
