import ChirpPersistence
import Foundation
import Testing

/// The contract every `Repository` implementation keeps; run against SQLite and in memory.
@Suite("Repository contract")
struct RepositoryContractTests {
    @Test(arguments: Implementation.allCases)
    func recordsRoundTripExactly(_ implementation: Implementation) async throws {
        let repository = try implementation.makeRepository()
        var full = note("1", rank: 7, text: "Grüße 👩‍👩‍👧 \"q\" \n", pinned: true, kind: .published, score: 2.5)
        full.attachment = Data([0, 1, 2, 255])
        let sparse = note("2")
        try await repository.save([full, sparse])
        #expect(try await repository.fetch(id: "1") == full)
        #expect(try await repository.fetch(id: "2") == sparse)
        #expect(try await repository.fetch(id: "3") == nil)
        #expect(try await repository.count(.all) == 2)
    }

    @Test(arguments: Implementation.allCases)
    func saveUpdatesById(_ implementation: Implementation) async throws {
        let repository = try implementation.makeRepository()
        try await repository.save([note("1", rank: 1)])
        try await repository.save([note("1", rank: 2, score: 1)])
        #expect(try await repository.count(.all) == 1)
        #expect(try await repository.fetch(id: "1")?.rank == 2)
        try await repository.save([note("1", rank: 3, score: nil)])
        #expect(try await repository.fetch(id: "1")?.score == nil, "a property set to nil is cleared")
    }

    @Test(arguments: Implementation.allCases)
    func queriesFilterOrderAndLimit(_ implementation: Implementation) async throws {
        let repository = try implementation.makeRepository()
        try await repository.save([
            note("a", rank: 3, kind: .published, score: 1.5), note("b", rank: 1),
            note("c", rank: 2, pinned: true, score: 0),
            note("d", rank: 3, text: "Zebra"), note("e", rank: 5, text: "apple", kind: .published),
        ])
        func ids(_ query: RecordQuery) async throws -> [String] { try await repository.fetch(query).map(\.id) }
        #expect(try await ids(.all) == ["a", "b", "c", "d", "e"])
        #expect(try await ids(.all.order(by: "rank")) == ["b", "c", "a", "d", "e"])
        #expect(try await ids(.all.order(by: "rank", ascending: false)) == ["e", "a", "d", "c", "b"])
        #expect(try await ids(.all.order(by: "rank", ascending: false).limit(2)) == ["e", "a"])
        #expect(try await ids(.all.filter("rank", .equal, 3)) == ["a", "d"])
        #expect(try await ids(.all.filter("rank", .notEqual, 3)) == ["b", "c", "e"])
        #expect(try await ids(.all.filter("rank", .greater, 2).filter("rank", .lessOrEqual, 3)) == ["a", "d"])
        #expect(try await ids(.all.filter("rank", .greaterOrEqual, 5)) == ["e"])
        #expect(try await ids(.all.filter("rank", .less, 2)) == ["b"])
        #expect(try await ids(.all.filter("rank", .equal, .real(3.0))) == ["a", "d"], "numbers compare by value")
        #expect(try await ids(.all.filter("kind", .equal, "published")) == ["a", "e"])
        #expect(try await ids(.all.filter("pinned", .equal, true)) == ["c"])
        #expect(try await ids(.all.filter("id", in: ["e", "b", "zz"])) == ["b", "e"])
        #expect(try await ids(.all.filter("id", in: [])) == [])
        #expect(try await ids(.all.filterNull("score")) == ["b", "d", "e"])
        #expect(try await ids(.all.filter("score", .notEqual, 0)) == ["a"], "NULL never compares, as in SQL")
        #expect(try await ids(.all.order(by: "score")) == ["b", "d", "e", "c", "a"], "NULL sorts first")
        #expect(try await ids(.all.order(by: "text")) == ["d", "e", "a", "b", "c"], "text by bytes: uppercase first")
        #expect(try await ids(.all.order(by: "kind").order(by: "rank", ascending: false)) == ["d", "c", "b", "e", "a"])
        #expect(try await repository.count(.all.filter("rank", .equal, 3).limit(1)) == 2, "count ignores the limit")
    }

    @Test(arguments: Implementation.allCases)
    func deletesAndReplaces(_ implementation: Implementation) async throws {
        let repository = try implementation.makeRepository()
        try await repository.save((1...6).map { note("\($0)", rank: $0) })
        #expect(try await repository.delete(ids: ["1", "2", "nope"]) == 2)
        #expect(try await repository.delete(matching: .all.filter("rank", .greater, 5)) == 1)
        #expect(try await repository.fetch(.all).map(\.id) == ["3", "4", "5"])
        try await repository.replace(
            matching: .all.filter("rank", .less, 5), with: [note("7", rank: 1), note("5", rank: 9)])
        #expect(try await repository.fetch(.all.order(by: "rank")).map(\.id) == ["7", "5"])
        #expect(try await repository.delete(matching: .all) == 2)
        #expect(try await repository.count(.all) == 0)
    }
}
