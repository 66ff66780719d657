@testable import ChirpServer
import Testing

/// The words a message is found by: folded, whole words, the same for text and query.
@Suite("Search terms")
struct SearchTermsTests {
    @Test func foldsCaseAndAccentsAndCutsAtEverythingElse() {
        #expect(SearchTerms.words("Café, CAFÉ and cafe!") == ["cafe", "and"])
        #expect(SearchTerms.words("Résumé: naïve ÜBER-cool") == ["resume", "naive", "uber", "cool"])
        #expect(SearchTerms.words("don't e-mail 42x") == ["don", "t", "e", "mail", "42x"])
        #expect(SearchTerms.words("日本語 テキスト 👍 *\"NEAR(") == ["日本語", "テキスト", "near"])
        #expect(SearchTerms.words("   ").isEmpty)
        #expect(SearchTerms.indexed("Hello  hello WORLD") == "hello world")
    }

    @Test func queriesAreQuotedForFTS() {
        #expect(SQLiteMessageSearch.match(words: ["cafe", "x\"y"], viewer: 3, peer: 9)
            == #""u3xcafe" AND "u3xx""y" AND "p9""#)
    }
}
