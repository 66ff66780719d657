import Testing

@testable import ChirpServer

/// How the bearer token is cut out of an `Authorization` header.
@Suite("Authenticator")
struct AuthenticatorTests {
    @Test func onlyHTTPsSpacesAndTabsAreTrimmedFromAToken() {
        #expect(Authenticator.trimmingOptionalWhitespace(" \t tok en\t ") == "tok en")
        #expect(
            Authenticator.trimmingOptionalWhitespace("tok\u{A0}") == "tok\u{A0}",
            "a no-break space is not HTTP whitespace")
        #expect(Authenticator.trimmingOptionalWhitespace(" \t ").isEmpty)
        #expect(Authenticator.trimmingOptionalWhitespace("").isEmpty)
    }
}
