import AsyncHTTPClient
import ChirpModels
import ChirpTestSupport
import Crypto
import Foundation
import GRDB
import NIOCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Media against a real `chirp serve` child: memory while a big upload streams, and a SIGKILL
/// in the middle of uploads.
@Suite("Media in a server process", .serialized)
struct MediaProcessTests {
    /// Resident memory of a process, in bytes (`VmRSS` of /proc/PID/status).
    static func residentBytes(_ pid: Int32) -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int64($0) }.first.map { $0 * 1024 }
    }

    /// A body that streams `bytes` in 64 KiB chunks (optionally pausing between them).
    static func stream(_ bytes: Data, pause: Duration = .zero) -> AsyncThrowingStream<ByteBuffer, any Error> {
        let bytes = Data(bytes)
        return AsyncThrowingStream { continuation in
            Task {
                var offset = 0
                while offset < bytes.count {
                    let end = min(offset + 64 * 1024, bytes.count)
                    continuation.yield(ByteBuffer(bytes: bytes[offset..<end]))
                    offset = end
                    if pause > .zero { try? await Task.sleep(for: pause) }
                }
                continuation.finish()
            }
        }
    }

    static func upload(
        _ api: APIHarness, _ session: Session, _ clientId: String, _ bytes: Data, pause: Duration = .zero
    ) async throws -> Int {
        var request = HTTPClientRequest(url: api.baseURL + "/v1/media/\(clientId)")
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(session.token)")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .stream(stream(bytes, pause: pause), length: .known(Int64(bytes.count)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    @Test func a25MiBUploadDoesNotGrowTheServersMemoryBy8MiB() async throws {
        let server = try await ServerProcess()
        defer { _ = try? FileManager.default.removeItem(at: server.dataDirectory) }
        let api = server.api
        let alice = try await api.register("alice")
        // Warm up the paths (and the allocator) with a smaller upload first.
        #expect(try await Self.upload(api, alice, "warm", MediaBytes.random(4 * 1024 * 1024, seed: 9)) == 201)
        let pid = server.process.processIdentifier
        let baseline = try #require(Self.residentBytes(pid))
        let peak = Atomic<Int64>(baseline)
        let sampler = Task {
            while !Task.isCancelled {
                if let now = Self.residentBytes(pid) { peak.max(now, ordering: .relaxed) }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        let bytes = MediaBytes.random(25 * 1024 * 1024)
        let status = try await Self.upload(api, alice, "big", bytes)
        sampler.cancel()
        _ = await sampler.result
        #expect(status == 201)
        let growth = peak.load(ordering: .relaxed) - baseline
        #expect(growth < 8 * 1024 * 1024, "RSS grew by \(growth / 1024) KiB during a 25 MiB upload")
        try await server.stop(signal: SIGTERM)
    }

    @Test func aSIGKILLDuringUploadsLeavesNoRowWithoutItsBytes() async throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { _ = try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess(dataDirectory: directory)
        let api = server.api
        let alice = try await api.register("alice")
        // Small uploads finish; a slow big one is in flight when the server is killed.
        for index in 0..<5 {
            #expect(
                try await Self.upload(api, alice, "small-\(index)", MediaBytes.random(50_000, seed: UInt64(index)))
                    == 201)
        }
        let inFlight = Task {
            try? await Self.upload(api, alice, "big", MediaBytes.random(8 * 1024 * 1024), pause: .milliseconds(2))
        }
        let partsInFlight = Task {
            for index in 0..<50 where !Task.isCancelled {
                _ = try? await Self.upload(
                    api, alice, "burst-\(index)", MediaBytes.random(200_000, seed: UInt64(100 + index)))
            }
        }
        try await Task.sleep(for: .milliseconds(400))
        server.process.signal(SIGKILL)
        while server.process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        // (A request to a dead server would wait for its connection until the timeout.)
        inFlight.cancel()
        partsInFlight.cancel()
        _ = await inFlight.result
        _ = await partsInFlight.result

        // Every media row names bytes that are there, whole.
        let database = try DatabaseQueue(path: directory.appendingPathComponent("chirp.sqlite").path)
        let rows = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT sha256, size FROM media").map { ($0[0] as String, $0[1] as Int64) }
        }
        #expect(rows.count >= 5)
        for (sha, size) in rows {
            let path = directory.appendingPathComponent("media/\(sha.prefix(2))/\(sha.dropFirst(2).prefix(2))/\(sha)")
            let data = try Data(contentsOf: path)
            #expect(Int64(data.count) == size)
            #expect(SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() == sha)
        }
        // After a restart the interrupted upload goes through under its client id.
        let restarted = try await ServerProcess(dataDirectory: directory)
        let login: AuthResponse = try await restarted.api.login("alice").decode()
        let again = Session(user: login.user, token: login.token)
        let status = try await Self.upload(restarted.api, again, "big", MediaBytes.random(8 * 1024 * 1024))
        #expect(status == 201 || status == 200)
        try await restarted.stop(signal: SIGTERM)
    }
}
