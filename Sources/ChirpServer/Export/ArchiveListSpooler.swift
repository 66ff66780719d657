import ChirpModels
import Foundation
import NIOPosix

/// Puts a paged list into an export archive as one JSON array: page after page into a spool
/// file (`JSONArraySpool`) in `directory`, then that file into the archive, then the spool
/// goes. Checks for cancellation between pages (an account deleted meanwhile).
struct ArchiveListSpooler {
    let tar: UstarWriter
    let directory: URL
    /// The prefix of every name in the archive.
    let root: String

    /// Adds `name` with every item of the pages `page(cursor)` gives, from a nil cursor until
    /// one answers no next cursor; `each` sees every item. With `keepEmpty` false an empty list
    /// adds nothing.
    func list<Item>(
        _ name: String, keepEmpty: Bool = true, each: (Item) -> Void = { _ in },
        page: (String?) async throws -> Page<Item>
    ) async throws {
        let path = directory.appendingPathComponent(UUID().uuidString + ".json").path
        let spool = try JSONArraySpool(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var cursor: String?
        var count = 0
        repeat {
            try Task.checkCancellation()
            let current = try await page(cursor)
            for item in current.items {
                try spool.append(item)
                each(item)
            }
            count += current.items.count
            cursor = current.nextCursor
        } while cursor != nil
        try spool.close()
        guard keepEmpty || count > 0 else { return }
        let tar = self.tar
        let entry = root + name
        _ = try await NIOThreadPool.singleton.runIfActive { try tar.add(entry, contentsOf: path) }
    }
}
