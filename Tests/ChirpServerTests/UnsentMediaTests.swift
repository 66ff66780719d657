import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// Where message actions meet attachments: an unsent message takes its media and every copy of
/// its text with it, for both people, on the suite's database (SQLite, or PostgreSQL with
/// CHIRP_TEST_DATABASE=postgres).
@Suite("Unsent messages with media")
struct UnsentMediaTests {
    @Test func anUnsentMessagesMediaAndTextAreGoneForTheRecipient() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let image: Media = try await api.putMedia(alice, "img", MediaBytes.png, type: "image/png").decode()
            let sent = try await api.sendMessage(alice, to: "bob", "secret plans", mediaIds: [image.id])
            #expect(sent.status == 201)
            let message: Message = try sent.decode()
            #expect(try await api.edit(alice, with: "bob", message.id, "secret plans v2").status == 200)
            #expect(try await api.react(bob, with: "alice", message.id, "👍").status == 204)
            #expect(try await api.getMedia(bob, image.id).status == 200)

            #expect(try await api.unsend(alice, with: "bob", message.id).status == 204)
            // The recipient can no longer read the media; the uploader still owns it.
            #expect(try await api.getMedia(bob, image.id).status == 404)
            #expect(try await api.getMedia(alice, image.id).status == 200)
            for (viewer, peer) in [(alice, "bob"), (bob, "alice")] {
                let stored = try #require(try await api.message(viewer, with: peer, id: message.id))
                #expect(stored.deleted && stored.media.isEmpty && stored.text.isEmpty)
                // Reading the whole stream again shows no trace of the text or the media.
                let events = try await api.allEvents(viewer)
                let copies = events.compactMap { event -> Message? in
                    switch event.payload {
                    case .messageCreated(let copy), .messageUpdated(let copy): copy.id == message.id ? copy : nil
                    default: nil
                    }
                }
                #expect(copies.count == 3, "created, edited and reacted: \(events.map(\.type))")
                for copy in copies {
                    #expect(copy.deleted && copy.text.isEmpty && copy.media.isEmpty && copy.reactions.isEmpty)
                }
                #expect(try await api.found(viewer, "secret") == [])
            }
        }
    }
}
