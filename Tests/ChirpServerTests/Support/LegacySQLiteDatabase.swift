import Foundation
import GRDB

@testable import ChirpServer

/// A server database file as an earlier version left it: the migrations up to `name` applied,
/// in a new temporary directory (removed by `remove()`), for the tests of a later migration.
struct LegacySQLiteDatabase {
    let directory: URL
    let url: URL
    let queue: DatabaseQueue

    init(migratedUpTo name: String) throws {
        directory = TestServer.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("chirp.sqlite")
        queue = try DatabaseQueue(path: url.path)
        try SQLiteSchema.migrator.migrate(queue, upTo: name)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
