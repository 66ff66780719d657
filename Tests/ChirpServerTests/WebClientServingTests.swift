import ChirpModels
import Foundation
import NIOHTTP1
import Testing

@testable import ChirpServer

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

    @Test func filesGoGzipCompressedWhenTheRequestAcceptsIt() async throws {
        try await TestServer.run { api in
            // (The harness's client asks for gzip unless told otherwise, and decompresses.)
            let plain = try await api.send(.GET, "/web/app.js", headers: [("Accept-Encoding", "identity")])
            #expect(plain.headers.first(name: "Content-Encoding") == nil)
            #expect(plain.headers.first(name: "Vary") == "Accept-Encoding")
            let packed = try await api.send(.GET, "/web/app.js", headers: [("Accept-Encoding", "br, gzip;q=0.8")])
            #expect(packed.status == 200 && packed.headers.first(name: "Content-Encoding") == "gzip")
            #expect(packed.headers.first(name: "Vary") == "Accept-Encoding")
            #expect(packed.body == plain.body, "the same file once decompressed")
            let sent = try #require(packed.headers.first(name: "Content-Length").flatMap { Int($0) })
            #expect(sent < plain.body.count / 2)
            let etag = try #require(packed.headers.first(name: "ETag"))
            #expect(etag != plain.headers.first(name: "ETag"), "each representation has its own validator")
            let again = try await api.send(
                .GET, "/web/app.js", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
        }
    }

    @Test func acceptEncodingAdmitsGzipOnlyWithAQualityAboveZero() {
        #expect(WebAssets.acceptsGzip(["gzip, deflate, br"]))
        #expect(WebAssets.acceptsGzip(["br", "GZIP;q=0.5"]))
        #expect(WebAssets.acceptsGzip(["*"]))
        #expect(!WebAssets.acceptsGzip([]))
        #expect(!WebAssets.acceptsGzip(["identity"]))
        #expect(!WebAssets.acceptsGzip(["gzip;q=0, *"]))
        #expect(!WebAssets.acceptsGzip(["br, *;q=0"]))
    }

    @Test func theServiceWorkerIsAtTheRootWithTheShellItCaches() async throws {
        try await TestServer.run { api in
            let worker = try await api.send(.GET, "/sw.js")
            #expect(worker.status == 200)
            #expect(worker.headers.first(name: "Content-Type") == "text/javascript; charset=utf-8")
            #expect(worker.headers.first(name: "Cache-Control") == "no-cache")
            #expect(!worker.text.contains(WebAssets.shellPlaceholder))
            #expect(worker.text.contains(#""/web/app.js""#) && worker.text.contains(#""/web/icon-192.png""#))
            let manifest = try await api.send(.GET, "/web/manifest.webmanifest")
            #expect(manifest.headers.first(name: "Content-Type") == "application/manifest+json")
            let icon = try await api.send(.GET, "/web/icon-192.png")
            #expect(icon.headers.first(name: "Content-Type") == "image/png")
        }
        let source = Data("const SHELL = \(WebAssets.shellPlaceholder);".utf8)
        let one = WebAssets.withShell(source, others: ["index.html": Data("a".utf8), "app.js": Data("b".utf8)])
        let other = WebAssets.withShell(source, others: ["index.html": Data("a".utf8), "app.js": Data("c".utf8)])
        #expect(String(decoding: one, as: UTF8.self).contains(#""files": ["/", "/web/app.js"]"#))
        #expect(one != other, "a changed file is a new worker")
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
