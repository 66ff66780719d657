/// The PostgreSQL migrations of message actions and search (API.md part 2).
enum PostgresMessageActionsSchema {
    static let migrations: [(name: String, sql: [String])] = [
        // A message's reply link, last edit and reactions (`ReactionsColumn`), and the words it
        // is found by (`SearchTerms`, written by the transaction that stores, edits or unsends
        // it) under a GIN index. Messages stored before this migration get their lower-cased
        // words (accents kept: SQL has no `SearchTerms`) until they are edited.
        (
            "v8-actions-messages",
            [
                """
                ALTER TABLE messages ADD COLUMN reply_to BIGINT, ADD COLUMN edited_at BIGINT, ADD COLUMN reactions TEXT,
                    ADD COLUMN search_words TEXT[] NOT NULL DEFAULT '{}'
                """,
                """
                UPDATE messages SET search_words = array_remove(regexp_split_to_array(lower(text), '[^[:alnum:]]+'), '')
                WHERE NOT deleted
                """,
                "CREATE INDEX messages_by_search_word ON messages USING gin (search_words)",
            ]
        )
    ]
}
