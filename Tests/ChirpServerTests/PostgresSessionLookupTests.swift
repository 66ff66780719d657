import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// Session lookups on PostgreSQL, gathered from concurrent requests into one query each
/// (`PostgresStorage.sessionLookups`): every request still gets its own session.
@Suite(
    "PostgreSQL session lookups",
    .enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
struct PostgresSessionLookupTests {
    @Test func concurrentLookupsEachGetTheirOwnSessionOrNone() async throws {
        try await PostgresGroupCommitTests.withInstances(1) { instances in
            let storage = instances[0]
            var users: [Viewer] = []
            for index in 0..<8 { users.append(try await storage.account("s\(index)", tokenHash: [9, UInt8(index)])) }
            let known = users
            // 200 lookups at once: each of the eight tokens many times, and tokens nobody has.
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for request in 0..<200 {
                    group.addTask {
                        let hash: [UInt8] = request % 5 == 4 ? [7, UInt8(request % 256)] : known[request % 8].tokenHash
                        return (request, try await storage.session(tokenHash: hash)?.username)
                    }
                }
                return try await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
            }
            for request in 0..<200 {
                let expected: String? = request % 5 == 4 ? nil : known[request % 8].username
                #expect(answers[request] == expected, "request \(request)")
            }
            #expect(
                storage.sessionLookups.statistics.batches < 200,
                "lookups were gathered: \(storage.sessionLookups.statistics)")
        }
    }
}
