import ChirpModels
import Foundation
import NIOCore
import Testing

/// A whole upload repeated under a clientMediaId that is already stored (issue 52): a retry
/// whose answer was lost, or the id reused for other bytes. Its body is compared with the
/// stored media as it streams and never written, so it holds no disk and no quota: another
/// length is refused before the body is read, a body past the stored size as soon as it gets
/// there. Over real HTTP, on SQLite and (with `CHIRP_TEST_DATABASE=postgres`) PostgreSQL.
@Suite("Repeated uploads under a stored clientMediaId")
struct RepeatedUploadTests {
    static let size = 100_000

    @Test func theSameBytesAnswerTheStoredMediaAndOtherBytesAreRefused() async throws {
        let configuration = TestServer.configuration { $0.mediaQuotaBytes = 1 << 20 }
        let tmp = configuration.mediaURL.appendingPathComponent("tmp")
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bytes = MediaBytes.random(Self.size)
            let stored: Media = try await api.putMedia(alice, "x", bytes).decode()

            let again = try await api.putMedia(alice, "x", bytes)
            #expect(again.status == 200 && (try? again.decode(Media.self)) == stored, "\(again.text)")
            let sameLength = try await api.putMedia(alice, "x", MediaBytes.random(Self.size, seed: 7))
            #expect(sameLength.status == 409 && sameLength.errorCode == "client_id_reused")
            let shorter = try await api.putMedia(alice, "x", bytes[0..<(Self.size - 1)])
            #expect(shorter.status == 409 && shorter.errorCode == "client_id_reused")

            // Chunked, with no length: the same bytes are the same media; a body running past
            // the stored size is refused there, before its end (which never comes).
            let chunked = try await RawConnection.open(port: api.port)
            try await chunked.channel.writeAndFlush(
                ByteBuffer(string: Self.head(alice, length: nil) + "\(String(Self.size, radix: 16))\r\n"))
            try await chunked.channel.writeAndFlush(ByteBuffer(bytes: bytes))
            try await chunked.write("\r\n0\r\n\r\n")
            let chunkedAnswer = try await Self.answer(chunked)
            #expect(
                chunkedAnswer.hasPrefix("HTTP/1.1 200") && chunkedAnswer.contains(stored.sha256), "\(chunkedAnswer)")
            await chunked.close()
            let longer = try await RawConnection.open(port: api.port)
            let past = Self.size + 1_000
            try await longer.write(
                Self.head(alice, length: nil) + "\(String(past, radix: 16))\r\n" + String(repeating: "a", count: past))
            let longerAnswer = try await Self.answer(longer)
            #expect(
                longerAnswer.hasPrefix("HTTP/1.1 409") && longerAnswer.contains("client_id_reused"), "\(longerAnswer)")
            await longer.close()
            #expect(try Self.files(in: tmp).isEmpty, "nothing parked in media/tmp")
        }
    }

    /// The hole issue 52 found: each retry under a used id was written whole to media/tmp,
    /// outside the quota, before it was compared; a user at a 1 MiB quota held 26 MB there.
    @Test func aRetryUnderAStoredIdWritesNothingAndAnotherLengthIsRefusedBeforeTheBody() async throws {
        let configuration = TestServer.configuration {
            $0.maxMediaBytes = 25 << 20
            $0.mediaQuotaBytes = Int64(Self.size)
        }
        let tmp = configuration.mediaURL.appendingPathComponent("tmp")
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bytes = MediaBytes.random(Self.size)
            #expect(try await api.putMedia(alice, "x", bytes).status == 201)
            #expect(
                try await api.putMedia(alice, "y", MediaBytes.random(10)).errorCode == "quota_exceeded",
                "the quota is full")

            // 25 MiB declared, 1,000 bytes sent, then nothing: refused at once.
            let large = try await RawConnection.open(port: api.port)
            try await large.write(Self.head(alice, length: 25 << 20) + String(repeating: "a", count: 1_000))
            let largeAnswer = try await Self.answer(large)
            #expect(largeAnswer.hasPrefix("HTTP/1.1 409") && largeAnswer.contains("client_id_reused"), "\(largeAnswer)")
            #expect(try Self.files(in: tmp).isEmpty)
            await large.close()

            // The stored length, half sent: in flight, it has written nothing; completed, it
            // is the stored media.
            let slow = try await RawConnection.open(port: api.port)
            try await slow.channel.writeAndFlush(ByteBuffer(string: Self.head(alice, length: Self.size)))
            try await slow.channel.writeAndFlush(ByteBuffer(bytes: bytes[0..<(Self.size / 2)]))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try Self.files(in: tmp).isEmpty, "a retry in flight holds no file")
            #expect(slow.collector.bytes.isEmpty, "and waits for the rest")
            try await slow.channel.writeAndFlush(ByteBuffer(bytes: bytes[(Self.size / 2)...]))
            let slowAnswer = try await Self.answer(slow)
            #expect(slowAnswer.hasPrefix("HTTP/1.1 200"), "\(slowAnswer)")
            await slow.close()
            #expect(try Self.files(in: tmp).isEmpty)
        }
    }

    /// The head of `PUT /v1/media/x` as alice: with `Content-Length`, or chunked.
    static func head(_ session: Session, length: Int?) -> String {
        "PUT /v1/media/x HTTP/1.1\r\nHost: chirp\r\nAuthorization: Bearer \(session.token)\r\nContent-Type: application/octet-stream\r\n"
            + (length.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n") + "\r\n"
    }

    /// The response on `connection` once its JSON body has arrived (or what came in 10 s).
    static func answer(_ connection: RawConnection) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        var text = ""
        while ContinuousClock.now < deadline {
            text = String(decoding: connection.collector.bytes, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n"), text[end.upperBound...].hasSuffix("}") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        return text
    }

    /// The files under `directory` (none when it does not exist).
    static func files(in directory: URL) throws -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }
}
