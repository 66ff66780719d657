import Testing

@testable import ChirpServer

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

    @Test func asciiTextKeepsEachWordOnceInOrderHoweverManyWords() {
        // Forty distinct words, each written three times in different cases, ending in a word
        // with no separator after it: repeats are found before and after the words outgrow
        // the comparison (16) and a set takes over.
        let distinct = (0..<40).map { "w\($0)x" }
        let text =
            distinct.map { "\($0) \($0.uppercased())" }.joined(separator: ", ") + " "
            + distinct.reversed().joined(separator: "-")
        #expect(SearchTerms.words(text) == distinct)
        #expect(SearchTerms.words("A") == ["a"])
        #expect(SearchTerms.words("end9") == ["end9"])
        #expect(SearchTerms.words("--x--y--x") == ["x", "y"])
    }

    @Test func queriesAreQuotedForFTS() {
        #expect(SQLiteMessageSearch.match(words: ["cafe", "x\"y"], viewer: 3) == #""u3xcafe" AND "u3xx""y""#)
    }

    @Test func eachWordIsIndexedOnceForEachPerson() {
        #expect(
            SQLiteMessageSearch.terms(words: ["cafe", "noir"], sender: 3, recipient: 12)
                == "u3xcafe u12xcafe u3xnoir u12xnoir")
        #expect(SQLiteMessageSearch.terms(words: ["solo"], sender: 7, recipient: 7) == "u7xsolo u7xsolo")
    }
}
