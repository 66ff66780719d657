/// The migration `v23-bounded-groups` (issue 52), the same statements on both databases but
/// for their id columns:
/// - `event_payloads`: an event's data stored once for every stream it is appended to (a
///   group's `group.created` and `group.updated`, whose Group grows with the members), so what
///   one group change stores grows with the members, not with their square. An event row
///   names its payload in `payload_id` (its own `data` is then empty).
/// - `group_members.final_group`: the group as a member last saw it before they left or were
///   removed (`FormerGroupColumn`), which their conversation list and export show from then on.
enum BoundedGroupsSchemaSQL {
    static let name = "v23-bounded-groups"

    /// The statements, with `idColumn` the payload table's key (SQLite `INTEGER PRIMARY KEY`,
    /// PostgreSQL an identity).
    static func statements(idColumn: String, idType: String) -> [String] {
        [
            "CREATE TABLE event_payloads (id \(idColumn), data TEXT NOT NULL)",
            "ALTER TABLE events ADD COLUMN payload_id \(idType)",
            "CREATE INDEX events_by_payload ON events(payload_id) WHERE payload_id IS NOT NULL",
            "ALTER TABLE group_members ADD COLUMN final_group TEXT",
        ]
    }
}
