import ChirpModels
import Foundation
import Synchronization
import Testing

@testable import ChirpServer

/// Client logs and reports have rate limits and a retention (issue 36): past
/// `--client-log-limit` batches or `--report-limit` reports a user gets 429 (a duplicate batch
/// and a refused report do not count), and entries and reports older than the operator's
/// retention are deleted. Over real HTTP.
@Suite("Client log and report limits")
struct LogAndReportLimitsTests {
    static func batch(_ id: String) -> LogUpload {
        LogUpload(
            batchId: id,
            entries: [LogRecord(level: "error", message: "it broke", timestamp: "2026-11-22T10:15:30.123Z")])
    }

    @Test func logBatchesAndReportsAreLimitedPerUser() async throws {
        let configuration = TestServer.configuration {
            $0.clientLogLimit = RateLimit(count: 2, window: .seconds(3_600))
            $0.reportLimit = RateLimit(count: 2, window: .seconds(3_600))
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            for id in ["b1", "b1", "b2"] {
                #expect(try await api.send(.POST, "/v1/logs", token: alice.token, json: Self.batch(id)).status == 202)
            }
            let third = try await api.send(.POST, "/v1/logs", token: alice.token, json: Self.batch("b3"))
            #expect(
                RateLimitTests.isLimited(third, saying: "You have sent too many log batches", within: 3_600),
                "\(third.text)")
            #expect(try await api.send(.POST, "/v1/logs", token: bob.token, json: Self.batch("b3")).status == 202)

            let report = ReportRequest(username: "bob", reason: "spam")
            #expect(
                try await api.send(
                    .POST, "/v1/reports", token: alice.token, json: ReportRequest(username: "ghost", reason: "spam")
                ).status == 404)
            for _ in 0..<2 {
                #expect(try await api.send(.POST, "/v1/reports", token: alice.token, json: report).status == 202)
            }
            let over = try await api.send(.POST, "/v1/reports", token: alice.token, json: report)
            #expect(
                RateLimitTests.isLimited(over, saying: "You have filed too many reports", within: 3_600), "\(over.text)"
            )
        }
    }

    @Test(.enabled(if: !TestDatabase.usesPostgres, "runs over a SQLite storage with the test's clock"))
    func logsAndReportsOlderThanTheRetentionAreDeleted() async throws {
        var configuration = TestServer.configuration {
            $0.clientLogRetention = .seconds(30 * 86_400)
            $0.reportRetention = .seconds(90 * 86_400)
            $0.retentionSweepInterval = .milliseconds(50)
            $0.tokenLifetime = .seconds(400 * 86_400)
        }
        configuration.dataDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let days = Mutex<Int64>(0)
        let start = Timestamp.now().millisecondsSince1970
        let clock: @Sendable () -> Timestamp = {
            Timestamp(millisecondsSince1970: start + days.withLock { $0 } * 86_400_000)
        }
        let storage = try SQLiteStorage(url: configuration.databaseURL)
        try await TestServer.run(services: ServerServices(configuration: configuration, storage: storage, now: clock)) {
            api in
            let alice = try await api.register("alice")
            _ = try await api.register("bob")
            #expect(try await api.send(.POST, "/v1/logs", token: alice.token, json: Self.batch("old")).status == 202)
            #expect(
                try await api.send(
                    .POST, "/v1/reports", token: alice.token, json: ReportRequest(username: "bob", reason: "spam")
                ).status == 202)
            days.withLock { $0 = 31 }
            #expect(try await api.send(.POST, "/v1/logs", token: alice.token, json: Self.batch("new")).status == 202)
            func remaining() async throws -> (logs: [String?], reports: Int) {
                let logs = try await storage.clientLogs(minimumSeverity: 0, limit: 100).map(\.batchId)
                let reports = try await storage.reports(since: Timestamp(millisecondsSince1970: 0), limit: 100).count
                return (logs, reports)
            }
            var left = try await remaining()
            for _ in 0..<200 where left.logs != ["new"] {
                try await Task.sleep(for: .milliseconds(25))
                left = try await remaining()
            }
            #expect(left.logs == ["new"], "the 31-day-old batch went, the new one stays")
            #expect(left.reports == 1, "a 31-day-old report stays (90 days)")
            // The old batch id went with its entries: the same id is a new batch now.
            let again = try await api.send(.POST, "/v1/logs", token: alice.token, json: Self.batch("old"))
            #expect(try again.decode(LogUploadReceipt.self).duplicate == false)
            days.withLock { $0 = 91 }
            for _ in 0..<200 where left.reports > 0 {
                try await Task.sleep(for: .milliseconds(25))
                left = try await remaining()
            }
            #expect(left.reports == 0)
        }
    }
}
