import ChirpModels
import Testing

@Suite("Validation rules of API.md")
struct ValidationTests {
    @Test func usernames() {
        for good in ["abc", "ABC_123", "a_b", String(repeating: "z", count: 15)] {
            #expect(throws: Never.self) { try Validation.username(good) }
        }
        for bad in ["ab", String(repeating: "z", count: 16), "a b", "a-b", "ünï", "abc\n", ""] {
            #expect(throws: ValidationError.self) { try Validation.username(bad) }
        }
        #expect(Validation.usernameKey("AliCe_9") == "alice_9")
    }

    @Test func passwordsAndDisplayNamesCountCodePoints() {
        #expect(throws: Never.self) { try Validation.password("12345678") }
        #expect(throws: ValidationError.self) { try Validation.password("1234567") }
        #expect(throws: Never.self) { try Validation.password(String(repeating: "é", count: 128)) }
        #expect(throws: ValidationError.self) { try Validation.password(String(repeating: "é", count: 129)) }
        #expect(throws: Never.self) { try Validation.displayName("") }
        #expect(throws: ValidationError.self) { try Validation.displayName("tab\there") }
        #expect(throws: ValidationError.self) { try Validation.displayName(String(repeating: "n", count: 51)) }
    }

    @Test func textsAreTrimmedThenMeasured() throws {
        #expect(try Validation.messageText("  hi \n") == "hi")
        #expect(try Validation.messageText("\u{1C}x\u{1F}") == "x")
        #expect(
            try Validation.tweetText(String(repeating: "a", count: 280) + "   ") == String(repeating: "a", count: 280))
        #expect(throws: ValidationError.self) { try Validation.tweetText(String(repeating: "a", count: 281)) }
        #expect(throws: ValidationError.self) { try Validation.messageText(" \t\n\u{2003}") }
        do {
            _ = try Validation.messageText(String(repeating: "x", count: 10_001))
            Issue.record("expected text_too_long")
        } catch {
            #expect(error.code == "text_too_long" && error.field == "text")
        }
    }

    @Test func clientIdsAndServerIds() {
        #expect(Validation.isValidClientId("550e8400-e29b-41d4-a716-446655440000"))
        #expect(Validation.isValidClientId("a_B-9"))
        #expect(!Validation.isValidClientId(""))
        #expect(!Validation.isValidClientId(String(repeating: "a", count: 65)))
        #expect(!Validation.isValidClientId("has space"))
        #expect(Validation.parseId("42") == 42)
        #expect(Validation.parseId("999999999999999999") == 999_999_999_999_999_999)
        for bad in ["0", "042", "-1", "+1", "1e3", "", "9999999999999999999", " 1"] {
            #expect(Validation.parseId(bad) == nil, "\(bad)")
        }
    }
}
