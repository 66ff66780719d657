import ChirpModels
import Foundation
import NIOHTTP1
import Testing

@testable import ChirpServer

/// Operators and what they do (issue 39), over real sockets, on SQLite (and on PostgreSQL with
/// `CHIRP_TEST_DATABASE=postgres`): the admin routes refuse everyone else, a suspension ends
/// the sessions and refuses login until lifted, a take-down is a tombstone for both people and
/// in their events, and the audit log records every action.
@Suite("Moderation: operators, suspensions, take-downs")
struct ModerationTests {
    /// Makes `username` an operator as `chirp admin grant` does (the server's database, beside
    /// the running server).
    static func grant(_ username: String, _ configuration: ServerConfiguration) async throws {
        #expect(try await ServerAdministration.setOperator(configuration: configuration, username: username, true))
    }

    /// The `message.deleted` notices among `events`.
    static func deletions(_ events: [Event]) -> [MessageDeletedNotice] {
        events.compactMap { event -> MessageDeletedNotice? in
            if case .messageDeleted(let notice) = event.payload { return notice } else { return nil }
        }
    }

    /// The stored copies of message `id` (`message.created`, `message.updated`) among `events`.
    static func storedCopies(_ events: [Event], of id: String) -> [Message] {
        events.compactMap { event -> Message? in
            switch event.payload {
            case .messageCreated(let message), .messageUpdated(let message): message.id == id ? message : nil
            default: nil
            }
        }
    }

    /// Every admin route, with a body where it takes one.
    static let adminCalls: [(HTTPMethod, String, (any Encodable & Sendable)?)] = [
        (.GET, "/v1/admin/reports", nil), (.GET, "/v1/admin/reports?status=resolved", nil),
        (.POST, "/v1/admin/reports/1/resolve", ResolveReportRequest(action: "none")),
        (.PUT, "/v1/admin/users/bob/suspension", nil), (.DELETE, "/v1/admin/users/bob/suspension", nil),
        (.DELETE, "/v1/admin/messages/1", nil), (.GET, "/v1/admin/stats", nil), (.GET, "/v1/admin/audit", nil),
        (.GET, "/v1/admin/reports?status=nonsense", nil),
        (.POST, "/v1/admin/reports/x/resolve", ResolveReportRequest(action: "ban")),
    ]

    @Test func nonOperatorsGet403OnEveryAdminRouteAndOperatorsDoNot() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, bob) = try await SafetyTests.friends(api)
            #expect(APIRoute.moderation.count == 7)
            for (method, path, body) in Self.adminCalls {
                let reply = try await api.send(method, path, token: bob.token, json: body)
                #expect(
                    reply.status == 403 && reply.errorCode == "not_operator",
                    "\(method) \(path): \(reply.status) \(reply.text)")
                #expect(try await api.send(method, path, json: body).status == 401)
            }
            let me: User = try await api.send(.GET, "/v1/me", token: alice.token).decode()
            #expect(me.operator == false)
            try await Self.grant("alice", configuration)
            #expect(try await api.send(.GET, "/v1/me", token: alice.token).decode(User.self).operator == true)
            #expect(try await api.send(.GET, "/v1/admin/reports", token: alice.token).status == 200)
            #expect(try await api.send(.GET, "/v1/admin/reports?status=nonsense", token: alice.token).status == 400)
            #expect(
                try await api.send(
                    .POST, "/v1/admin/reports/x/resolve", token: alice.token, json: ResolveReportRequest(action: "ban")
                ).status == 422)
            #expect(
                try await api.send(
                    .POST, "/v1/admin/reports/99/resolve", token: alice.token,
                    json: ResolveReportRequest(action: "none")
                ).errorCode == "report_not_found")
            #expect(try await api.send(.DELETE, "/v1/admin/messages/99999", token: alice.token).status == 404)
            #expect(
                try await api.send(.PUT, "/v1/admin/users/alice/suspension", token: alice.token).errorCode
                    == "cannot_suspend_self")
            #expect(try await api.send(.PUT, "/v1/admin/users/nobody/suspension", token: alice.token).status == 404)
            let figures: ServerFigures = try await api.send(.GET, "/v1/admin/stats", token: alice.token).decode()
            #expect(figures.users == 2 && figures.messages == 2 && figures.openReports == 0 && figures.storageBytes > 0)
            // Revoked: refused again at once.
            #expect(try await ServerAdministration.setOperator(configuration: configuration, username: "alice", false))
            #expect(try await api.send(.GET, "/v1/admin/stats", token: alice.token).errorCode == "not_operator")
        }
    }

    @Test func aSuspensionEndsTheSessionsAndRefusesLoginUntilLifted() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, bob) = try await SafetyTests.friends(api)
            try await Self.grant("alice", configuration)
            let laptop = try await api.login("bob").decode(AuthResponse.self)
            #expect(try await api.send(.GET, "/v1/me", token: bob.token).status == 200)

            #expect(try await api.send(.PUT, "/v1/admin/users/bob/suspension", token: alice.token).status == 204)
            #expect(
                try await api.send(.PUT, "/v1/admin/users/BOB/suspension", token: alice.token).status == 204,
                "idempotent")
            for token in [bob.token, laptop.token] {
                #expect(try await api.send(.GET, "/v1/me", token: token).status == 401, "every session ended")
            }
            let refused = try await api.login("bob")
            #expect(refused.status == 403 && refused.errorCode == "account_suspended", "\(refused.text)")
            #expect(
                try await api.login("bob", password: "wrong password").status == 401,
                "the suspension is said only to the password's owner")
            // Its messages stay.
            #expect(try await api.messages(alice, with: "bob").items.count == 2)

            #expect(try await api.send(.DELETE, "/v1/admin/users/bob/suspension", token: alice.token).status == 204)
            let back = try await api.login("bob")
            #expect(back.status == 201)
            let token = try back.decode(AuthResponse.self).token
            #expect(
                try await api.sendMessage(Session(user: bob.user, token: token), to: "alice", "I am back").status == 201
            )
        }
    }

    @Test func aTakenDownMessageIsATombstoneForBothPeopleAndInTheirEvents() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, bob) = try await SafetyTests.friends(api)
            let carol = try await api.register("carol")
            try await Self.grant("carol", configuration)
            let sent: Message = try await api.sendMessage(bob, to: "alice", "something awful").decode()
            #expect(try await api.edit(bob, with: "alice", sent.id, "something worse").status == 200)

            #expect(try await api.send(.DELETE, "/v1/admin/messages/\(sent.id)", token: carol.token).status == 204)
            #expect(
                try await api.send(.DELETE, "/v1/admin/messages/\(sent.id)", token: carol.token).status == 204,
                "idempotent")
            for (viewer, peer) in [(alice, "bob"), (bob, "alice")] {
                let message = try #require(try await api.messages(viewer, with: peer).items.first { $0.id == sent.id })
                #expect(message.deleted && message.removedByOperators && message.text.isEmpty)
                let events = try await api.events(viewer).events
                let deleted = Self.deletions(events)
                #expect(
                    deleted == [
                        MessageDeletedNotice(id: sent.id, sender: "bob", recipient: "alice", removedByOperators: true)
                    ])
                let stored = Self.storedCopies(events, of: sent.id)
                #expect(
                    stored.count == 2 && stored.allSatisfy { $0.text.isEmpty && $0.deleted && $0.removedByOperators },
                    "the stored created and updated events keep no text: \(stored)")
            }
            #expect(try await api.search(alice, "worse").decode(Page<Message>.self).items.isEmpty)
            let raw = try await api.send(.GET, "/v1/conversations/bob/messages", token: alice.token).text
            #expect(raw.contains("\"removedByOperators\":true") && !raw.contains("awful") && !raw.contains("worse"))
        }
    }

    @Test func aTakenDownGroupMessageIsATombstoneForEveryMemberAndInTheirEvents() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, members) = try await api.people("alice", ["bob", "carol"])
            let (bob, carol) = (members[0], members[1])
            let dave = try await api.register("dave")
            try await Self.grant("dave", configuration)
            let group = try await api.group(alice, ["bob", "carol"])
            let sent = try await api.sentToGroup(bob, group.id, "something awful")
            let edited = try await api.send(
                .PATCH, "/v1/groups/\(group.id)/messages/\(sent.id)", token: bob.token,
                json: TextBody(text: "something worse"))
            #expect(edited.status == 200)
            let kept = try await api.sentToGroup(alice, group.id, "fine words")

            #expect(try await api.send(.DELETE, "/v1/admin/messages/\(sent.id)", token: dave.token).status == 204)
            #expect(
                try await api.send(.DELETE, "/v1/admin/messages/\(sent.id)", token: dave.token).status == 204,
                "idempotent")
            for viewer in [alice, bob, carol] {
                let page = try await api.groupMessages(viewer, group.id).decode(Page<Message>.self)
                let message = try #require(page.items.first { $0.id == sent.id })
                #expect(message.deleted && message.removedByOperators && message.text.isEmpty, "\(viewer.username)")
                #expect(page.items.first { $0.id == kept.id }?.text == "fine words")
                let events = try await api.allEvents(viewer)
                let deleted = Self.deletions(events)
                #expect(
                    deleted == [
                        MessageDeletedNotice(
                            id: sent.id, sender: "bob", recipient: "", removedByOperators: true, group: group.id)
                    ],
                    "\(viewer.username): once, as the idempotent repeat tells nobody")
                let stored = Self.storedCopies(events, of: sent.id)
                #expect(
                    stored.count == 2 && stored.allSatisfy { $0.text.isEmpty && $0.deleted && $0.removedByOperators },
                    "\(viewer.username): the stored created and updated events keep no text")
                let raw = try await api.send(.GET, "/v1/events?since=0", token: viewer.token).text
                #expect(!raw.contains("awful") && !raw.contains("worse"))
            }
            #expect(try await api.search(alice, "worse").decode(Page<Message>.self).items.isEmpty)
            // A member reports another group message of bob's; resolving it takes it down.
            let reported = try await api.sentToGroup(bob, group.id, "more of it")
            let notMember = try await api.send(
                .POST, "/v1/reports", token: dave.token,
                json: ReportRequest(username: "bob", messageId: reported.id, reason: "abuse"))
            #expect(notMember.status == 404, "only someone who reads the message may name it")
            let filed = try await api.send(
                .POST, "/v1/reports", token: carol.token,
                json: ReportRequest(username: "bob", messageId: reported.id, reason: "abuse"))
            #expect(filed.status == 202, "\(filed.text)")
            let reportId = try filed.decode(ReportReceipt.self).id
            let resolved = try await api.send(
                .POST, "/v1/admin/reports/\(reportId)/resolve", token: dave.token,
                json: ResolveReportRequest(action: "remove-message"))
            #expect(resolved.status == 200, "\(resolved.text)")
            let after = try await api.groupMessages(alice, group.id).decode(Page<Message>.self).items.first {
                $0.id == reported.id
            }
            #expect(after?.deleted == true && after?.removedByOperators == true && after?.text == "")
            let audit = try await api.send(.GET, "/v1/admin/audit", token: dave.token).decode(Page<AuditEntry>.self)
            #expect(audit.items.contains { $0.action == "remove-message" && $0.target == sent.id })
            #expect(audit.items.contains { $0.action == "remove-message" && $0.target == reported.id })
        }
    }

    @Test func resolvingReportsActsAndTheAuditLogRecordsEachAction() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, bob) = try await SafetyTests.friends(api)
            let root = try await api.register("root")
            try await Self.grant("root", configuration)
            let sent: Message = try await api.sendMessage(bob, to: "alice", "buy my pills").decode()
            func report(_ messageId: String?, note: String) async throws -> String {
                let reply = try await api.send(
                    .POST, "/v1/reports", token: alice.token,
                    json: ReportRequest(username: "bob", messageId: messageId, reason: "spam", note: note))
                return try reply.decode(ReportReceipt.self).id
            }
            let first = try await report(sent.id, note: "spam")
            let second = try await report(nil, note: "still at it")
            let third = try await report(nil, note: "duplicate")

            let open: Page<ModerationReport> = try await api.send(.GET, "/v1/admin/reports?limit=2", token: root.token)
                .decode()
            #expect(open.items.map(\.id) == [third, second] && open.nextCursor != nil)
            let rest: Page<ModerationReport> = try await api.send(
                .GET, "/v1/admin/reports?limit=2&cursor=\(open.nextCursor!)", token: root.token
            ).decode()
            let reported = try #require(rest.items.first)
            #expect(rest.items.map(\.id) == [first] && rest.nextCursor == nil)
            #expect(reported.message == ReportedMessage(id: sent.id, sender: "bob", text: "buy my pills", mediaIds: []))
            #expect(reported.status == "open" && reported.action == nil && !reported.reportedSuspended)

            let noMessage = try await api.send(
                .POST, "/v1/admin/reports/\(second)/resolve", token: root.token,
                json: ResolveReportRequest(action: "remove-message"))
            #expect(noMessage.status == 422 && noMessage.errorCode == "no_reported_message")
            let removed: ModerationReport = try await api.send(
                .POST, "/v1/admin/reports/\(first)/resolve", token: root.token,
                json: ResolveReportRequest(action: "remove-message")
            ).decode()
            #expect(removed.status == "resolved" && removed.action == "remove-message" && removed.resolvedBy == "root")
            #expect(removed.message?.text == "buy my pills", "the report keeps the message as it was")
            #expect(
                try await api.messages(alice, with: "bob").items.first { $0.id == sent.id }?.removedByOperators == true)
            let again = try await api.send(
                .POST, "/v1/admin/reports/\(first)/resolve", token: root.token,
                json: ResolveReportRequest(action: "none"))
            #expect(again.status == 409 && again.errorCode == "report_resolved")
            let suspended: ModerationReport = try await api.send(
                .POST, "/v1/admin/reports/\(second)/resolve", token: root.token,
                json: ResolveReportRequest(action: "suspend")
            ).decode()
            #expect(suspended.reportedSuspended && suspended.action == "suspend")
            #expect(try await api.send(.GET, "/v1/me", token: bob.token).status == 401)
            #expect(
                try await api.send(
                    .POST, "/v1/admin/reports/\(third)/resolve", token: root.token,
                    json: ResolveReportRequest(action: "none")
                ).status == 200)
            #expect(try await api.send(.DELETE, "/v1/admin/users/bob/suspension", token: root.token).status == 204)

            let resolved: Page<ModerationReport> = try await api.send(
                .GET, "/v1/admin/reports?status=resolved", token: root.token
            ).decode()
            #expect(resolved.items.map(\.id) == [third, second, first])
            #expect(
                try await api.send(.GET, "/v1/admin/reports", token: root.token).decode(Page<ModerationReport>.self)
                    .items.isEmpty)

            let audit: Page<AuditEntry> = try await api.send(.GET, "/v1/admin/audit", token: root.token).decode()
            let actions = audit.items.map { "\($0.operator ?? "-") \($0.action) \($0.target)" }
            #expect(
                actions == [
                    "root unsuspend bob", "root resolve-report \(third)", "root resolve-report \(second)",
                    "root suspend bob",
                    "root resolve-report \(first)", "root remove-message \(sent.id)", "- grant root",
                ], "\(actions)")
            #expect(audit.items.allSatisfy { $0.createdAt.millisecondsSince1970 > 0 })
        }
    }

    @Test func resolvingByASuspensionActsOnTheReportedAccountNotOnTheNameReRegistered() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let (alice, bob) = try await SafetyTests.friends(api)
            let root = try await api.register("root")
            try await Self.grant("root", configuration)
            let filed = try await api.send(
                .POST, "/v1/reports", token: alice.token,
                json: ReportRequest(username: "bob", messageId: nil, reason: "abuse", note: nil))
            let report = try filed.decode(ReportReceipt.self).id
            let gone = try await api.send(
                .DELETE, "/v1/me", token: bob.token, json: DeleteAccountRequest(password: "correct horse"))
            #expect(gone.status == 204)
            let newcomer = try await api.register("bob")

            let resolved = try await api.send(
                .POST, "/v1/admin/reports/\(report)/resolve", token: root.token,
                json: ResolveReportRequest(action: "suspend"))
            #expect(resolved.status == 200, "\(resolved.text)")
            #expect(
                try await api.send(.GET, "/v1/me", token: newcomer.token).status == 200, "the new bob keeps his session"
            )
            #expect(try await api.login("bob").status == 201, "and may log in")
            let audit: Page<AuditEntry> = try await api.send(.GET, "/v1/admin/audit", token: root.token).decode()
            let suspended = audit.items.filter { $0.action == "suspend" }.map(\.target)
            #expect(suspended == ["deleted-\(bob.user.id)"], "the deleted account, by its id: \(suspended)")
        }
    }
}
