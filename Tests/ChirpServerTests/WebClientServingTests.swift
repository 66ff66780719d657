import ChirpModels
import Foundation
import NIOHTTP1
import Testing

@Suite("The web client's files: headers, revalidation, unknown names")
struct WebClientServingTests {
    @Test func thePageAndItsFilesCarryTheSecurityAndCacheHeaders() async throws {
        try await TestServer.run { api in
            let page = try await api.send(.GET, "/")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/web/app.js">"#))
            let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
            #expect(
                policy.contains("script-src 'self'") && policy.contains("connect-src 'self'")
                    && policy.contains("default-src 'none'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            // Attachments are fetched with the token and shown from blob: URLs.
            #expect(policy.contains("img-src 'self' data: blob:"))
            #expect(page.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(page.headers.first(name: "Referrer-Policy") == "no-referrer")
            #expect(page.headers.first(name: "Cache-Control") == "no-cache")
            #expect(page.headers.first(name: "ETag")?.hasPrefix("\"") == true)

            let script = try await api.send(.GET, "/web/app.js")
            #expect(
                script.status == 200 && script.headers.first(name: "Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.headers.first(name: "X-Content-Type-Options") == "nosniff")
            let style = try await api.send(.GET, "/web/style.css")
            #expect(style.status == 200 && style.headers.first(name: "Content-Type") == "text/css; charset=utf-8")
            #expect(script.headers.first(name: "ETag") != style.headers.first(name: "ETag"))
        }
    }

    @Test func aKnownETagIsAnswered304WithoutABody() async throws {
        try await TestServer.run { api in
            let first = try await api.send(.GET, "/web/app.js")
            let etag = try #require(first.headers.first(name: "ETag"))
            let again = try await api.send(.GET, "/web/app.js", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(again.headers.first(name: "ETag") == etag)
            let listed = try await api.send(.GET, "/web/app.js", headers: [("If-None-Match", #""other", "# + etag)])
            #expect(listed.status == 304)
            let stale = try await api.send(.GET, "/web/app.js", headers: [("If-None-Match", #""0000""#)])
            #expect(stale.status == 200 && stale.body == first.body)
            let page = try await api.send(.GET, "/", headers: [("If-None-Match", etag)])
            #expect(page.status == 200, "another file's ETag does not match the page")
        }
    }

    @Test func unknownFilesAndTraversalAre404WithTheEnvelope() async throws {
        try await TestServer.run { api in
            for path in [
                "/web/nothing.js", "/web/", "/web/..%2Fopenapi.yaml", "/web/%2e%2e%2f%2e%2e%2fPackage.swift",
                "/web/../../Package.swift", "/web/..%5C..%5CPackage.swift", "/web/index.html%00.js",
                "/web/.%2E/openapi.yaml",
            ] {
                let reply = try await api.send(.GET, path)
                #expect(reply.status == 404, "\(path)")
                #expect(reply.errorCode == "not_found", "\(path)")
                #expect(!reply.text.contains("openapi:") && !reply.text.contains("PackageDescription"), "\(path)")
            }
        }
    }

    @Test func otherMethodsOnThePageAreRefusedWithTheEnvelope() async throws {
        try await TestServer.run { api in
            for (method, path) in [(HTTPMethod.POST, "/"), (.DELETE, "/web/app.js"), (.PUT, "/web/index.html")] {
                let reply = try await api.send(method, path)
                #expect([404, 405].contains(reply.status), "\(method) \(path)")
                #expect(reply.errorCode != nil, "\(method) \(path)")
            }
        }
    }

    @Test func theWebRoutesStayOutOfTheAPIRouteTable() {
        #expect(!APIRoute.all.contains { $0.template == "/" || $0.template.hasPrefix("/web") })
    }
}
