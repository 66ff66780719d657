import ChirpModels
import Testing

@Suite("Follows")
struct SocialTests {
    @Test func followIsIdempotentAndCounted() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(alice, "bob")
            try await api.follow(alice, "BOB")
            let seenByAlice: User = try await api.send(.GET, "/v1/users/bob", token: alice.token).decode()
            #expect(seenByAlice.followersCount == 1)
            #expect(seenByAlice.followedByYou == true && seenByAlice.followsYou == false)
            let seenByBob: User = try await api.send(.GET, "/v1/users/alice", token: bob.token).decode()
            #expect(seenByBob.followingCount == 1 && seenByBob.followsYou == true && seenByBob.followedByYou == false)
            let events = try await api.allEvents(bob)
            #expect(events.map(\.type) == ["follow.created"], "one event for the first follow only")
            if case .followCreated(let notice) = events.first?.payload {
                #expect(notice.follower.username == "alice")
            } else {
                Issue.record("expected follow.created")
            }
            #expect(try await api.send(.DELETE, "/v1/users/bob/follow", token: alice.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/users/bob/follow", token: alice.token).status == 204)
            let after: User = try await api.send(.GET, "/v1/users/bob", token: alice.token).decode()
            #expect(after.followersCount == 0 && after.followedByYou == false)
        }
    }

    @Test func followingYourselfOrNobody() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let me = try await api.send(.PUT, "/v1/users/alice/follow", token: alice.token)
            #expect(me.status == 422 && me.errorCode == "cannot_follow_self")
            let ghost = try await api.send(.PUT, "/v1/users/ghost/follow", token: alice.token)
            #expect(ghost.status == 404 && ghost.errorCode == "user_not_found")
            let ghostList = try await api.send(.GET, "/v1/users/ghost/followers", token: alice.token)
            #expect(ghostList.status == 404)
        }
    }

    @Test func followerListsPageNewestFirstWithoutGapsOrRepeats() async throws {
        try await TestServer.run { api in
            let star = try await api.register("star")
            var names: [String] = []
            for index in 0..<12 {
                let fan = try await api.register("fan\(index)")
                try await api.follow(fan, "star")
                names.append(fan.username)
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "?limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page: Page<User> = try await api.send(.GET, "/v1/users/star/followers\(query)", token: star.token)
                    .decode()
                #expect(page.items.count <= 5)
                seen += page.items.map(\.username)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == names.reversed())
            let fan0Following: Page<User> = try await api.send(.GET, "/v1/users/fan0/following", token: star.token)
                .decode()
            #expect(fan0Following.items.map(\.username) == ["star"])
            #expect(fan0Following.items.first?.followsYou == false)
        }
    }
}
