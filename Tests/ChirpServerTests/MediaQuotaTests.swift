import ChirpModels
import Foundation
import Testing

/// The media quota counts what uploads hold as well as what is stored (issue 36): unfinished
/// resumable uploads by their declared totals, whole uploads by their declared length while
/// their bodies arrive; at most five unfinished uploads per user. Over real HTTP, on SQLite
/// and (with `CHIRP_TEST_DATABASE=postgres`) PostgreSQL.
@Suite("Media quota")
struct MediaQuotaTests {
    @Test func unfinishedUploadsCountAgainstTheQuota() async throws {
        let configuration = TestServer.configuration {
            $0.maxMediaBytes = 1_000
            $0.mediaQuotaBytes = 3_000
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bytes = MediaBytes.random(1_000)
            for id in ["u1", "u2", "u3"] {
                #expect(try await api.putMedia(alice, id, bytes[0..<10], range: "bytes 0-9/1000").status == 202)
            }
            let fourth = try await api.putMedia(alice, "u4", bytes[0..<10], range: "bytes 0-9/1000")
            #expect(fourth.status == 403 && fourth.errorCode == "quota_exceeded", "3,000 bytes are declared already")
            let whole = try await api.putMedia(alice, "w", MediaBytes.random(100))
            #expect(whole.status == 403 && whole.errorCode == "quota_exceeded")
            // Finishing one keeps the sum: stored 1,000 and 2,000 unfinished.
            #expect(try await api.putMedia(alice, "u1", bytes[10..<1_000], range: "bytes 10-999/1000").status == 201)
            #expect(try await api.putMedia(alice, "w", MediaBytes.random(100)).status == 403)
            // Another user's quota is their own.
            let bob = try await api.register("bob")
            #expect(try await api.putMedia(bob, "w", MediaBytes.random(100)).status == 201)
        }
    }

    @Test func atMostFiveUnfinishedUploadsPerUser() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            for index in 0..<5 {
                #expect(try await api.putMedia(alice, "p\(index)", Data([1]), range: "bytes 0-0/1000").status == 202)
            }
            let sixth = try await api.putMedia(alice, "p5", Data([1]), range: "bytes 0-0/1000")
            #expect(
                sixth.status == 403 && sixth.errorCode == "quota_exceeded"
                    && sixth.text.contains("5 unfinished uploads"))
            // A part of one already started is still taken, and finishing it frees a place.
            #expect(
                try await api.putMedia(alice, "p0", MediaBytes.random(999), range: "bytes 1-999/1000").status == 201)
            #expect(try await api.putMedia(alice, "p5", Data([1]), range: "bytes 0-0/1000").status == 202)
        }
    }

    @Test func concurrentWholeUploadsCannotPassTheQuotaTogether() async throws {
        let configuration = TestServer.configuration {
            $0.maxMediaBytes = 1_000
            $0.mediaQuotaBytes = 1_500
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            // The first upload sends half its body and waits. Probes that store nothing (their
            // bytes are not the PNG they claim) answer 422 until it holds its 1,000 bytes, then
            // 403. (A probe that is itself under way when the first is admitted makes the first
            // 403 instead: then the test starts again with another id, giving the first longer
            // to be admitted before probing, as a loaded machine may need.)
            var admitted = false
            for attempt in 0..<6 where !admitted {
                let first = try await RawConnection.open(port: api.port)
                try await first.write(
                    "PUT /v1/media/first-\(attempt) HTTP/1.1\r\nHost: chirp\r\nAuthorization: Bearer \(alice.token)\r\n"
                        + "Content-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
                        + String(repeating: "a", count: 500))
                try await Task.sleep(for: .milliseconds(250 * (attempt + 1)))
                var probe = 422
                for _ in 0..<400 where probe == 422 && first.collector.bytes.isEmpty {
                    probe = try await api.putMedia(alice, "probe", MediaBytes.random(600), type: "image/png").status
                    if probe == 422 { try await Task.sleep(for: .milliseconds(25)) }
                }
                guard first.collector.bytes.isEmpty else {
                    await first.close()
                    continue
                }
                admitted = true
                #expect(probe == 403, "another 600 bytes do not fit beside the 1,000 being received")
                try await first.write(String(repeating: "b", count: 500))
                var answer = ""
                for _ in 0..<400 where !answer.contains("\r\n\r\n") {
                    try await Task.sleep(for: .milliseconds(25))
                    answer = String(decoding: first.collector.bytes, as: UTF8.self)
                }
                await first.close()
                #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
            }
            #expect(admitted)
            #expect(try await api.putMedia(alice, "second", MediaBytes.random(1_000, seed: 3)).status == 403)
        }
    }
}
