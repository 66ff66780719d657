@testable import ChirpServer
import ChirpModels
import Foundation
import GRDB
import HummingbirdBcrypt
import Testing

/// Passwords as API.md says (issue 36): NUL refused (422), every character counts however long
/// (bcrypt reads 72 bytes and stops at NUL: the server pre-hashes), hashes stored before still
/// accepted; and a wrong password for an unknown name costs what one for a known name does.
@Suite("Password rules")
struct PasswordRulesTests {
    @Test func nulIsRefusedAndEveryCharacterCounts() async throws {
        try await TestServer.run { api in
            let nul = try await api.send(.POST, "/v1/accounts", json: RegisterRequest(username: "nul", password: "\u{0}aaaaaaaaa"))
            #expect(nul.status == 422 && nul.errorCode == "invalid_password")
            let long = String(repeating: "p", count: 100) + "-the end"
            let alice = try await api.register("alice", password: long)
            #expect(try await api.login("alice", password: String(repeating: "p", count: 100) + "-another").status == 401)
            #expect(try await api.login("alice", password: String(long.prefix(72))).status == 401)
            #expect(try await api.login("alice", password: long).status == 201)
            let toNul = try await api.send(
                .PUT, "/v1/me/password", token: alice.token, json: ChangePasswordRequest(currentPassword: long, newPassword: "abc\u{0}defghij"))
            #expect(toNul.status == 422 && toNul.errorCode == "invalid_password")
        }
    }

    @Test(.enabled(if: !TestDatabase.usesPostgres, "writes a hash of the old form into the SQLite file"))
    func hashesOfTheOldFormStillWorkButNeverThroughANul() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            _ = try await api.register("alice")
            _ = try await api.register("nulpass")
            let database = try DatabaseQueue(path: configuration.databaseURL.path)
            try await database.write { db in
                try db.execute(sql: "UPDATE users SET password_hash = ? WHERE username = 'alice'", arguments: [Bcrypt.hash("an old password", cost: 4)])
                // bcrypt saw nothing of a password that began with NUL.
                try db.execute(sql: "UPDATE users SET password_hash = ? WHERE username = 'nulpass'", arguments: [Bcrypt.hash("\u{0}first", cost: 4)])
            }
            #expect(try await api.login("alice", password: "an old password").status == 201)
            #expect(try await api.login("alice", password: "an old passwore").status == 401)
            #expect(try await api.login("nulpass", password: "\u{0}anything else").status == 401)
        }
    }

    @Test func anUnknownNameCostsWhatAKnownOneDoes() async throws {
        try await TestServer.run(TestServer.configuration { $0.bcryptCost = 10 }) { api in
            _ = try await api.register("alice")
            func fastest(_ username: String) async throws -> Duration {
                var best = Duration.seconds(60)
                for _ in 0..<3 {
                    let start = ContinuousClock.now
                    #expect(try await api.login(username, password: "wrong password").status == 401)
                    best = min(best, ContinuousClock.now - start)
                }
                return best
            }
            let known = try await fastest("alice")
            let unknown = try await fastest("nobody")
            // bcrypt at cost 10 takes tens of milliseconds; cost 4 would be 64 times less.
            #expect(unknown * 2 > known, "unknown \(unknown), known \(known)")
        }
    }
}
