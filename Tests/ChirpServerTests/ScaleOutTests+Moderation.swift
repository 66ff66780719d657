import ChirpModels
import ChirpTestSupport
import Foundation
import Testing

extension ScaleOutAcrossInstancesTests {
    /// An operator (made one with `chirp admin grant --database`) suspends a user through one
    /// instance: the user's sessions stop working on both instances at once, their event
    /// stream on the other instance closes, and login is refused on both until the suspension
    /// is lifted.
    @Test(.enabled(if: ScaleOutTests.available || ScaleOutTests.required, ScaleOutTests.skipReason))
    func aSuspendedUserIsRefusedOnEveryInstance() async throws {
        try await ScaleOutTests.withCluster { cluster in
            let (first, second) = (cluster.instances[0].api, cluster.instances[1].api)
            let root = try await first.register("root")
            let bob = try await first.register("bob")
            let grant = try await runChirp(["admin", "grant", "root", "--database", cluster.settings.url])
            #expect(grant.status == 0 && grant.output.contains("root is now an operator"), "\(grant.output)")
            let tablet = try await second.login("bob").decode(AuthResponse.self).token
            // Both instances have seen (and may cache) both of bob's sessions.
            for api in [first, second] {
                for token in [bob.token, tablet] {
                    #expect(try await api.send(.GET, "/v1/me", token: token).status == 200)
                }
            }
            let port = cluster.instances[1].port
            let stream = Task {
                try await SilentWebSocket.connect(
                    port: port, path: "/v1/events/stream?token=\(tablet)", timeout: .seconds(30))
            }
            try await StreamLimitTests.waitForOpenStreams(1, second)

            #expect(try await first.send(.PUT, "/v1/admin/users/bob/suspension", token: root.token).status == 204)
            for api in [first, second] {
                for token in [bob.token, tablet] {
                    #expect(try await api.send(.GET, "/v1/me", token: token).status == 401)
                    #expect(
                        try await api.sendMessage(Session(user: bob.user, token: token), to: "root", "hello?").status
                            == 401)
                }
                let login = try await api.login("bob")
                #expect(login.status == 403 && login.errorCode == "account_suspended")
            }
            let closed = try await stream.value
            #expect(closed.endedByServer && closed.closeCode == 1008)

            #expect(try await second.send(.DELETE, "/v1/admin/users/bob/suspension", token: root.token).status == 204)
            for api in [first, second] { #expect(try await api.login("bob").status == 201) }
        }
    }
}
