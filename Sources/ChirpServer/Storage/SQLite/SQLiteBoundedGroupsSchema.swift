import GRDB

/// SQLite's `v23-bounded-groups` (`BoundedGroupsSchemaSQL`).
enum SQLiteBoundedGroupsSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration(BoundedGroupsSchemaSQL.name) { db in
            for statement in BoundedGroupsSchemaSQL.statements(idColumn: "INTEGER PRIMARY KEY", idType: "INTEGER") {
                try db.execute(sql: statement)
            }
        }
    }
}
