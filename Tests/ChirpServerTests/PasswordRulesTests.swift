import ChirpModels
import Foundation
import GRDB
import HummingbirdBcrypt
import Testing

@testable import ChirpServer

/// Passwords as API.md says (issue 36): NUL refused (422), every character counts however long
/// (bcrypt reads 72 bytes and stops at NUL: the server pre-hashes), hashes stored before still
/// accepted; and a wrong password for an unknown name costs what one for a known name does.
@Suite("Password rules")
struct PasswordRulesTests {
    @Test func nulIsRefusedAndEveryCharacterCounts() async throws {
        try await TestServer.run { api in
            let nul = try await api.send(
                .POST, "/v1/accounts", json: RegisterRequest(username: "nul", password: "\u{0}aaaaaaaaa"))
            #expect(nul.status == 422 && nul.errorCode == "invalid_password")
            let long = String(repeating: "p", count: 100) + "-the end"
            let alice = try await api.register("alice", password: long)
            #expect(
                try await api.login("alice", password: String(repeating: "p", count: 100) + "-another").status == 401)
            #expect(try await api.login("alice", password: String(long.prefix(72))).status == 401)
            #expect(try await api.login("alice", password: long).status == 201)
            let toNul = try await api.send(
                .PUT, "/v1/me/password", token: alice.token,
                json: ChangePasswordRequest(currentPassword: long, newPassword: "abc\u{0}defghij"))
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
                try db.execute(
                    sql: "UPDATE users SET password_hash = ? WHERE username = 'alice'",
                    arguments: [Bcrypt.hash("an old password", cost: 4)])
                // bcrypt saw nothing of a password that began with NUL.
                try db.execute(
                    sql: "UPDATE users SET password_hash = ? WHERE username = 'nulpass'",
                    arguments: [Bcrypt.hash("\u{0}first", cost: 4)])
            }
            #expect(try await api.login("alice", password: "an old password").status == 201)
            #expect(try await api.login("alice", password: "an old passwore").status == 401)
            #expect(try await api.login("nulpass", password: "\u{0}anything else").status == 401)
        }
    }

    /// Equal work for unknown and known names, checked without a clock (a timing comparison
    /// flaked on a loaded machine): an unknown name is checked against a decoy of exactly a real
    /// hash's form and cost, the same bcrypt work (the issue measured 15 times less: a decoy at
    /// cost 4 against real hashes at 10); and over HTTP both answer the same 401.
    @Test func anUnknownNameIsCheckedAgainstAHashOfTheRealFormAndCost() async throws {
        let hasher = PasswordHasher(cost: 10)
        let real = try await hasher.hash("a password")
        // bcrypt's string: "$2b$" COST "$", then 22 characters of salt and 31 of hash.
        func form(_ hash: String) -> String { String(hash.dropLast(53)) }
        #expect(form(hasher.decoy) == form(real))
        #expect(form(real) == PasswordHasher.prehashed + "$2b$10$")
        #expect(try await hasher.verify("a password", hash: nil) == false)

        try await TestServer.run { api in
            _ = try await api.register("alice")
            let known = try await api.login("alice", password: "wrong password")
            let unknown = try await api.login("nobody", password: "wrong password")
            #expect(known.status == 401 && unknown.status == 401)
            #expect(
                known.errorCode == unknown.errorCode && known.text == unknown.text,
                "the answers do not tell the names apart")
        }
    }
}
