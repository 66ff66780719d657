import ChirpModules
import Foundation
import Testing

@Suite("Router")
struct RouterTests {
    @Test func parametersQueryItemsAndLiteralPrecedence() async throws {
        let router = Router()
        try router.register("chirp://conversation/:username") {
            "conversation with \($0["username"]!), draft \($0["draft"] ?? "-")"
        }
        try router.register("chirp://user/:name") { "profile of \($0["name"]!)" }
        try router.register("chirp://user/me") { _ in "my profile" }
        try router.register("chirp://user/:name/tweets/:id") { "tweet \($0["id"]!) of \($0["name"]!)" }
        try router.register("chirp://timeline") { _ in "timeline" }
        func open(_ text: String) async throws -> String? { try await router.open(URL(string: text)!) as? String }
        #expect(try await open("chirp://conversation/bob?draft=hi%20there") == "conversation with bob, draft hi there")
        #expect(try await open("chirp://conversation/b%C3%B6b") == "conversation with böb, draft -")
        #expect(try await open("chirp://user/me") == "my profile", "a literal beats a parameter")
        #expect(try await open("chirp://user/alice") == "profile of alice")
        #expect(try await open("chirp://user/alice/tweets/42") == "tweet 42 of alice")
        #expect(try await open("CHIRP://timeline") == "timeline")
        #expect(
            router.canOpen(URL(string: "chirp://timeline")!) && !router.canOpen(URL(string: "chirp://timeline/extra")!))
        #expect(router.patterns.count == 5)
    }

    @Test func unknownURLsGoToTheFallbackOrFail() async throws {
        let router = Router()
        try router.register("chirp://timeline") { _ in "timeline" }
        await #expect(throws: RouterError.noRoute("chirp://nowhere")) {
            try await router.open(URL(string: "chirp://nowhere")!)
        }
        await #expect(throws: RouterError.noRoute("other://timeline")) {
            try await router.open(URL(string: "other://timeline")!)
        }
        router.setFallback { match in "no screen for \(match.url.absoluteString) (\(match.query["x"] ?? ""))" }
        #expect(
            try await router.open(URL(string: "chirp://nowhere?x=1")!) as? String
                == "no screen for chirp://nowhere?x=1 (1)")
        let withFallback = Router(fallback: { _ in "fallback" })
        #expect(try await withFallback.open(URL(string: "x://y")!) as? String == "fallback")
    }

    @Test func patternsAreValidatedAndRegisteredOnce() async throws {
        let router = Router()
        #expect(throws: RouterError.invalidPattern("no-scheme/path")) {
            try router.register("no-scheme/path") { _ in "" }
        }
        #expect(throws: RouterError.self) { try router.register("://path") { _ in "" } }
        #expect(throws: RouterError.self) { try router.register("chirp://user/:") { _ in "" } }
        try router.register("chirp://a") { _ in "first" }
        #expect(throws: RouterError.duplicatePattern("chirp://a")) {
            try router.register("chirp://a") { _ in "second" }
        }
        try router.register("chirp://user/:name") { _ in "profile" }
        #expect(throws: RouterError.duplicatePattern("chirp://user/:other"), "same URLs, other parameter name") {
            try router.register("chirp://user/:other") { _ in "" }
        }
        try router.register("chirp://user/me") { _ in "me" }  // a literal is a different route
        #expect(try await router.open(URL(string: "chirp://a")!) as? String == "first")
        #expect(router.patterns == ["chirp://a", "chirp://user/:name", "chirp://user/me"])
        #expect(RouterError.invalidPattern("x").description != RouterError.noRoute("x").description)
    }
}
