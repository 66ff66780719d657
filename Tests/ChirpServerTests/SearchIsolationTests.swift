import ChirpModels
import Foundation
import Testing

/// Search answers only from the viewer's own conversations, whatever words others write
/// (issue 36): a message between two other people that tries to end a word in the viewer's
/// index term (`u<id>x…`) behind every kind of separator is never found by the viewer.
/// Over real HTTP on SQLite, and PostgreSQL with `CHIRP_TEST_DATABASE=postgres`.
@Suite("Search isolation")
struct SearchIsolationTests {
    /// Characters to plant between a word and the victim's term: for each block of 128 code
    /// points the first of each general category, and the letters that SQLite's unicode61
    /// tables (Unicode 6.1) call marks but Swift calls letters (New Tai Lue vowels, Vedic
    /// signs): letters, digits, private use, marks, punctuation, symbols, spaces, format.
    static let separators: [Unicode.Scalar] = {
        var picked: [Unicode.Scalar] = []
        for block in stride(from: 0x21, to: 0x30000, by: 0x80) {
            var seen = Set<String>()
            for value in block..<(block + 0x80) {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let category = scalar.properties.generalCategory
                if [.control, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator].contains(category) {
                    continue
                }
                if seen.insert("\(category)").inserted { picked.append(scalar) }
            }
        }
        let known =
            (0x19B0...0x19C9).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0x1CF2)!, Unicode.Scalar(0x1CF3)!]
        return picked + known
    }()

    @Test func wordsPlantedByOthersNeverReachTheViewer() async throws {
        try await TestServer.run { api in
            let (alice, bob, carol) = try await MessageActionTests.people(api)
            let victim = carol.user.id
            // Alice writes to Bob: words that end in Carol's term behind every separator.
            let plants = Self.separators.map { "w\(String($0))u\(victim)xplanted" }
            var texts: [String] = []
            var current = ""
            for plant in plants {
                if current.unicodeScalars.count + plant.unicodeScalars.count + 1 > 9_000 {
                    texts.append(current)
                    current = ""
                }
                current += plant + " "
            }
            texts.append(current)
            for text in texts { _ = try await api.sent(alice, to: "bob", text) }
            _ = try await api.sent(alice, to: "carol", "our planted tree")

            #expect(try await api.found(carol, "planted") == ["our planted tree"], "only Carol's own conversation")
            #expect(try await api.found(carol, "planted", peer: "alice") == ["our planted tree"])
            #expect(try await api.found(carol, "w").isEmpty)
            #expect(try await api.search(carol, "planted", peer: "bob").status == 200)
            #expect(try await api.found(carol, "planted", peer: "bob").isEmpty)
            #expect(try await api.found(alice, "tree") == ["our planted tree"])
            #expect(try await api.found(bob, "tree").isEmpty)
        }
    }
}
