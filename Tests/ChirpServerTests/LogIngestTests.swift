import ChirpModels
import ChirpServer
import Foundation
import Testing

@Suite("Client log ingest")
struct LogIngestTests {
    static func record(_ level: String = "error", _ message: String = "boom") -> LogRecord {
        LogRecord(
            level: level, message: message, timestamp: "2026-11-22T10:15:30.123Z", metadata: ["screen": "chat"],
            source: "app")
    }

    @Test func batchesAreStoredOncePerUserAndBatchId() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let upload = LogUpload(
                batchId: "batch-1",
                entries: [Self.record("error", "first"), Self.record("fatal", "second"), Self.record("info", "third")])
            let first = try await api.send(.POST, "/v1/logs", token: alice.token, json: upload)
            #expect(first.status == 202)
            #expect(
                try first.decode(LogUploadReceipt.self)
                    == LogUploadReceipt(batchId: "batch-1", accepted: 3, duplicate: false))
            let again = try await api.send(.POST, "/v1/logs", token: alice.token, json: upload)
            #expect(again.status == 202)
            #expect(try again.decode(LogUploadReceipt.self).duplicate)
            #expect(try await api.send(.POST, "/v1/logs", token: bob.token, json: upload).status == 202)
            let stored = try await ServerAdministration.clientLogs(configuration: configuration)
            #expect(stored.count == 6, "three from alice once, three from bob")
            let errors = try await ServerAdministration.clientLogs(configuration: configuration, minimumLevel: "error")
            #expect(errors.map(\.message) == ["first", "second", "first", "second"])
            #expect(
                errors.first?.username == "alice" && errors.first?.metadata == ["screen": "chat"]
                    && errors.first?.source == "app")
            #expect(
                ServerAdministration.line(for: errors[0])
                    == "2026-11-22T10:15:30.123Z ERROR alice [app] first screen=chat")
        }
    }

    @Test func badBatchesAreRefusedAndNothingIsStored() async throws {
        let configuration = TestServer.configuration()
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            func post(_ upload: LogUpload) async throws -> Reply {
                try await api.send(.POST, "/v1/logs", token: alice.token, json: upload)
            }
            let tooMany = try await post(
                LogUpload(batchId: "b", entries: Array(repeating: Self.record("info", "x"), count: 501)))
            #expect(tooMany.status == 422 && tooMany.errorCode == "too_many_entries")
            #expect(
                try await post(LogUpload(batchId: "b", entries: Array(repeating: Self.record("info", "x"), count: 500)))
                    .status == 202)
            let level = try await post(LogUpload(batchId: "c", entries: [Self.record("panic")]))
            #expect(level.status == 422 && level.errorCode == "invalid_level")
            var badTime = Self.record()
            badTime.timestamp = "last tuesday"
            #expect(try await post(LogUpload(batchId: "d", entries: [badTime])).errorCode == "invalid_timestamp")
            #expect(try await post(LogUpload(batchId: "not ok!", entries: [])).errorCode == "invalid_batch_id")
            let huge = try await post(
                LogUpload(batchId: "e", entries: [Self.record("error", String(repeating: "x", count: 70_000))]))
            #expect(huge.status == 413)
            #expect(try await api.send(.POST, "/v1/logs", json: LogUpload(batchId: "f", entries: [])).status == 401)
            #expect(try await api.send(.POST, "/v1/logs", token: alice.token, raw: #"{"entries":[]}"#).status == 400)
            let stored = try await ServerAdministration.clientLogs(configuration: configuration)
            #expect(stored.count == 500)
        }
        await #expect(throws: AdministrationError.self) {
            try await ServerAdministration.clientLogs(dataDirectory: URL(fileURLWithPath: "/nonexistent/chirp"))
        }
    }
}
