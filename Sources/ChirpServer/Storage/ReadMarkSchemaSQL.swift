/// The migration `v28-one-unread-model` (issue 53), the same statements on both databases: a
/// direct conversation's unread count is no longer a counter each send adds to, but what a
/// group's always was, the others' messages after the owner's read mark, counted when read
/// (`StorageSQL.directUnread`). `conversations.read_up_to` is the mark; it is set where the
/// counter left off (the newest `unread_count` of the peer's messages stay unread), and the
/// counter goes.
enum ReadMarkSchemaSQL {
    static let name = "v28-one-unread-model"

    static let statements = [
        "ALTER TABLE conversations ADD COLUMN read_up_to BIGINT NOT NULL DEFAULT 0",
        """
        UPDATE conversations SET read_up_to = COALESCE((
            SELECT ranked.id FROM (
                SELECT m.id, ROW_NUMBER() OVER (ORDER BY m.id DESC) AS place FROM messages m
                WHERE \(StorageSQL.pairOf(owner: "conversations.owner_id", peer: "conversations.peer_id", message: "m"))
                    AND m.sender_id = conversations.peer_id
            ) ranked WHERE ranked.place = conversations.unread_count + 1), 0)
        """,
        "ALTER TABLE conversations DROP COLUMN unread_count",
    ]
}
