import ChirpModels
import Crypto
import Foundation
import Synchronization
import Testing

@testable import ChirpServer

@Suite("Media (attachments)")
struct MediaTests {
    static func sha(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    @Test func wholeUploadIsIdempotentByClientIdAndStoresTheExactBytes() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.run(TestServer.configuration { $0.dataDirectory = directory }) { api in
            let alice = try await api.register("alice")
            let created = try await api.putMedia(
                alice, "m-1", MediaBytes.png, type: "image/png", query: "?filename=cat.png")
            #expect(created.status == 201)
            let media: Media = try created.decode()
            #expect(media.size == Int64(MediaBytes.png.count) && media.sha256 == Self.sha(MediaBytes.png))
            #expect(media.filename == "cat.png" && media.contentType == "image/png" && media.clientMediaId == "m-1")
            // The bytes sit at their content address, exactly.
            let stored = directory.appendingPathComponent(
                "media/\(media.sha256.prefix(2))/\(media.sha256.dropFirst(2).prefix(2))/\(media.sha256)")
            #expect(try Data(contentsOf: stored) == MediaBytes.png)
            let again = try await api.putMedia(alice, "m-1", MediaBytes.png, type: "image/png")
            #expect(again.status == 200)
            #expect(try again.decode(Media.self) == media)
            let other = try await api.putMedia(alice, "m-1", MediaBytes.jpeg, type: "image/jpeg")
            #expect(other.status == 409 && other.errorCode == "client_id_reused")
            #expect(
                try await api.uploadStatus(alice, "m-1") == MediaUploadStatus(received: media.size, total: media.size))
            #expect(try await api.uploadStatus(alice, "never") == MediaUploadStatus(received: 0, total: nil))
        }
    }

    @Test func sniffingCapsAndQuota() async throws {
        let configuration = TestServer.configuration {
            $0.maxMediaBytes = 1_000
            $0.mediaQuotaBytes = 1_500
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let lie = try await api.putMedia(alice, "lie", MediaBytes.jpeg, type: "image/png")
            #expect(lie.status == 422 && lie.errorCode == "media_type_mismatch")
            #expect(try await api.putMedia(alice, "jpeg", MediaBytes.jpeg, type: "image/jpeg").status == 201)
            // Other types are taken as declared.
            #expect(try await api.putMedia(alice, "text", Data("hello".utf8), type: "text/plain").status == 201)
            let big = try await api.putMedia(alice, "big", MediaBytes.random(1_001))
            #expect(big.status == 413 && big.errorCode == "media_too_large")
            let bigParts = try await api.putMedia(alice, "big2", MediaBytes.random(10), range: "bytes 0-9/1001")
            #expect(bigParts.status == 413)
            #expect(try await api.putMedia(alice, "a", MediaBytes.random(900)).status == 201)
            let over = try await api.putMedia(alice, "b", MediaBytes.random(900, seed: 2))
            #expect(over.status == 403 && over.errorCode == "quota_exceeded")
            // A body over 64 KiB is fine for media when the caps allow it; the JSON limit still holds elsewhere.
            let badType = try await api.putMedia(alice, "t", Data("x".utf8), type: "not a type")
            #expect(badType.status == 400)
            let badRange = try await api.putMedia(alice, "r", Data("x".utf8), range: "bytes 5-1/10")
            #expect(badRange.status == 400)
        }
    }

    @Test func partsResumeAfterACutAndStoreExactly25MiB() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let total = 25 * 1024 * 1024
            let bytes = MediaBytes.random(total)
            let part = 8 * 1024 * 1024
            let first = try await api.putMedia(alice, "big", bytes[0..<part], range: "bytes 0-\(part - 1)/\(total)")
            #expect(first.status == 202)
            #expect(
                try first.decode(MediaUploadStatus.self)
                    == MediaUploadStatus(received: Int64(part), total: Int64(total)))
            // The next part is cut in the middle: the server keeps what arrived.
            await api.putMediaCut(
                alice, "big", bytes[part..<(part + 3 * 1024 * 1024)], first: Int64(part), declaredLength: Int64(part),
                total: Int64(total))
            let status = try await api.uploadStatus(alice, "big")
            #expect(status.total == Int64(total))
            #expect(status.received >= Int64(part) && status.received <= Int64(part + 3 * 1024 * 1024))
            // A part at the wrong offset is refused with where to resume.
            let wrong = try await api.putMedia(alice, "big", bytes[0..<10], range: "bytes 0-9/\(total)")
            #expect(wrong.status == 409 && wrong.errorCode == "upload_offset_mismatch")
            #expect(
                try JSONDecoder().decode(APIErrorBody.self, from: wrong.body).error.field == String(status.received))
            var offset = Int(status.received)
            var last: Reply?
            while offset < total {
                let end = min(offset + part, total)
                last = try await api.putMedia(
                    alice, "big", bytes[offset..<end], range: "bytes \(offset)-\(end - 1)/\(total)")
                offset = end
            }
            #expect(last?.status == 201)
            let media: Media = try #require(try last?.decode())
            #expect(media.size == Int64(total) && media.sha256 == Self.sha(bytes))
            #expect(try await api.mediaBytes(alice, media.id) == bytes)
            // The last part again (its answer lost) answers the stored media.
            let retry = try await api.putMedia(
                alice, "big", bytes[(total - 10)...], range: "bytes \(total - 10)-\(total - 1)/\(total)")
            #expect(retry.status == 200)
        }
    }

    @Test func downloadsAnswerRangesETagsAndOnlyTheRightPeople() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let carol = try await api.register("carol")
            try await api.follow(bob, "alice")
            let image: Media = try await api.putMedia(alice, "img", MediaBytes.png, type: "image/png").decode()
            let file: Media = try await api.putMedia(
                alice, "doc", Data("report text".utf8), type: "text/plain", query: "?filename=r%C3%A9port.txt"
            ).decode()
            // Before any message carries them, only the uploader reads them.
            #expect(try await api.getMedia(bob, image.id).status == 404)
            #expect(try await api.getMedia(alice, image.id).status == 200)
            let sent = try await api.sendMessage(alice, to: "bob", "  ", mediaIds: [image.id, file.id])
            #expect(sent.status == 201)
            let message: Message = try sent.decode()
            #expect(message.text == "" && message.media.map(\.id) == [image.id, file.id])
            let whole = try await api.getMedia(bob, image.id)
            #expect(whole.status == 200 && whole.body == MediaBytes.png)
            #expect(whole.headers.first(name: "ETag") == "\"\(image.sha256)\"")
            #expect(whole.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(whole.headers.first(name: "Content-Disposition") == nil)
            #expect(whole.headers.first(name: "Content-Type") == "image/png")
            let doc = try await api.getMedia(bob, file.id)
            #expect(doc.headers.first(name: "Content-Disposition")?.hasPrefix("attachment") == true)
            #expect(try await api.getMedia(carol, image.id).status == 404)
            #expect(try await api.getMedia(carol, "999999").status == 404)
            #expect(try await api.getMedia(bob, "nonsense").status == 404)
            let notModified = try await api.getMedia(bob, image.id, headers: [("If-None-Match", "\"\(image.sha256)\"")])
            #expect(notModified.status == 304 && notModified.body.isEmpty)
            let range = try await api.getMedia(bob, image.id, headers: [("Range", "bytes=2-5")])
            #expect(range.status == 206 && range.body == MediaBytes.png[2...5])
            #expect(range.headers.first(name: "Content-Range") == "bytes 2-5/\(MediaBytes.png.count)")
            let suffix = try await api.getMedia(bob, image.id, headers: [("Range", "bytes=-4")])
            #expect(suffix.status == 206 && suffix.body == MediaBytes.png.suffix(4))
            let outside = try await api.getMedia(bob, image.id, headers: [("Range", "bytes=5000-")])
            #expect(outside.status == 416)
            // The media travel with the message everywhere.
            #expect(try await api.messages(bob, with: "alice").items.first?.media == message.media)
            let conversations: Page<Conversation> = try await api.send(.GET, "/v1/conversations", token: bob.token)
                .decode()
            #expect(conversations.items.first?.lastMessage?.media == message.media)
            let event = try await api.allEvents(bob).first { $0.type == "message.created" }
            guard case .messageCreated(let eventMessage)? = event?.payload else {
                Issue.record("no message.created")
                return
            }
            #expect(eventMessage.media == message.media)
            // A retry with the same media is the same message; other media is a reuse.
            #expect(
                try await api.sendMessage(
                    alice, to: "bob", "", mediaIds: [image.id, file.id], clientId: message.clientMessageId
                ).status == 200)
            #expect(
                try await api.sendMessage(alice, to: "bob", "", mediaIds: [image.id], clientId: message.clientMessageId)
                    .status == 409)
        }
    }

    @Test func sendsTakeOnlyTheSendersOwnMediaAtMostFour() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            try await api.follow(alice, "bob")
            var ids: [String] = []
            for index in 0..<5 {
                ids.append(
                    try await api.putMedia(alice, "m\(index)", MediaBytes.random(100, seed: UInt64(index))).decode(
                        Media.self
                    ).id)
            }
            let five = try await api.sendMessage(alice, to: "bob", "five", mediaIds: ids)
            #expect(five.status == 422 && five.errorCode == "invalid_media")
            let bobs: Media = try await api.putMedia(bob, "b", MediaBytes.random(10)).decode()
            let foreign = try await api.sendMessage(alice, to: "bob", "not mine", mediaIds: [bobs.id])
            #expect(foreign.status == 422 && foreign.errorCode == "invalid_media")
            #expect(try await api.sendMessage(alice, to: "bob", "dup", mediaIds: [ids[0], ids[0]]).status == 422)
            #expect(try await api.sendMessage(alice, to: "bob", "", mediaIds: []).status == 422)
            #expect(try await api.sendMessage(alice, to: "bob", "four", mediaIds: Array(ids.prefix(4))).status == 201)
        }
    }

    @Test func aDeletedAccountsMediaLeaveWithIt() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let media: Media = try await api.putMedia(alice, "m", MediaBytes.png, type: "image/png").decode()
            #expect(try await api.sendMessage(alice, to: "bob", "pic", mediaIds: [media.id]).status == 201)
            #expect(try await api.getMedia(bob, media.id).status == 200)
            #expect(
                try await api.send(
                    .DELETE, "/v1/me", token: alice.token, json: DeleteAccountRequest(password: "correct horse")
                ).status == 204)
            #expect(try await api.getMedia(bob, media.id).status == 404)
            let replayed = try await api.allEvents(bob).compactMap { event -> Message? in
                if case .messageCreated(let message) = event.payload { return message } else { return nil }
            }
            let leftOver = replayed.filter { !$0.media.isEmpty }
            #expect(leftOver.isEmpty)
        }
    }

    @Test func theSweepCollectsOldUnreferencedMediaOnly() async throws {
        // The server's clock is the test's: media get old when the test says so.
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = TestServer.configuration { $0.mediaSweepInterval = .milliseconds(100) }
        configuration.dataDirectory = directory
        configuration.postgres = nil
        let clock = Mutex(Timestamp.now())
        let storage = try SQLiteStorage(url: configuration.databaseURL)
        let services = ServerServices(configuration: configuration, storage: storage, now: { clock.withLock { $0 } })
        try await TestServer.run(services: services) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let kept: Media = try await api.putMedia(alice, "kept", MediaBytes.random(100, seed: 1)).decode()
            let dropped: Media = try await api.putMedia(alice, "dropped", MediaBytes.random(100, seed: 2)).decode()
            let young: Media = try await api.putMedia(alice, "young", MediaBytes.random(100, seed: 3)).decode()
            #expect(try await api.sendMessage(alice, to: "bob", "here", mediaIds: [kept.id]).status == 201)
            clock.withLock { $0 = Timestamp(millisecondsSince1970: $0.millisecondsSince1970 + 25 * 3_600_000) }
            let fresh: Media = try await api.putMedia(alice, "fresh", MediaBytes.random(100, seed: 4)).decode()
            let deadline = ContinuousClock.now + .seconds(60)
            while try await api.getMedia(alice, dropped.id).status != 404, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await api.getMedia(alice, dropped.id).status == 404)
            #expect(try await api.getMedia(alice, young.id).status == 404)
            #expect(try await api.getMedia(bob, kept.id).status == 200)
            #expect(try await api.getMedia(alice, fresh.id).status == 200)
            let blob = directory.appendingPathComponent(
                "media/\(dropped.sha256.prefix(2))/\(dropped.sha256.dropFirst(2).prefix(2))/\(dropped.sha256)")
            #expect(!FileManager.default.fileExists(atPath: blob.path))
        }
    }

    /// A media record whose file the disk cannot give (here, removed under the server) is the
    /// server's trouble: 503 in the error envelope, whole or in part, never a 500.
    @Test func aFileTheDiskCannotGiveAnswers503() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let image: Media = try await api.putMedia(alice, "img", MediaBytes.png, type: "image/png").decode()
            #expect(try await api.getMedia(alice, image.id).status == 200)
            try FileManager.default.removeItem(atPath: MediaFiles(root: configuration.mediaURL).blobPath(image.sha256))
            for headers in [[], [("Range", "bytes=0-3")]] {
                let reply = try await api.getMedia(alice, image.id, headers: headers)
                #expect(
                    reply.status == 503 && reply.text.contains(APIErrorCode.unavailable),
                    "\(reply.status) \(reply.text)")
                #expect(reply.headers.first(name: "Retry-After") == "1")
            }
        }
    }
}
