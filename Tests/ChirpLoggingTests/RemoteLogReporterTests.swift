import Foundation
import Testing

@testable import ChirpLogging

@Suite("Remote log reporter")
struct RemoteLogReporterTests {
    @Test func countStrategyMovesToDiskThenUploadsAtTheWaterline() async throws {
        let directory = temporaryDirectory()
        let uploader = RecordingUploader()
        let reporter = try RemoteLogReporter(
            directory: directory, uploader: uploader,
            strategy: CountPersistenceStrategy(maxMemoryCount: 3, waterline: 6), sleep: { _ in })
        reporter.receive(error("1"))
        reporter.receive(error("2"))
        #expect(reporter.statistics.inMemory == 2 && reporter.statistics.onDisk == 0)
        reporter.receive(error("3"))
        #expect(reporter.statistics.inMemory == 0 && reporter.statistics.onDisk == 3)
        reporter.receive(LogEntry(level: .warning, message: "not reported"))
        for index in 4...6 { reporter.receive(error("\(index)")) }
        await reporter.waitForUploads()
        #expect(uploader.storedEntries.map(\.message) == ["1", "2", "3", "4", "5", "6"])
        #expect(reporter.statistics.onDisk == 0 && reporter.statistics.uploadedBatches == 1)
    }

    @Test func byteStrategyUsesSizes() async throws {
        let uploader = RecordingUploader()
        let reporter = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader,
            strategy: BytePersistenceStrategy(maxMemoryBytes: 500, waterlineBytes: 1_500, maxDiskBytes: 100_000),
            sleep: { _ in })
        reporter.receive(error(String(repeating: "a", count: 300)))
        #expect(reporter.statistics.onDisk == 0)
        reporter.receive(error(String(repeating: "b", count: 300)))
        #expect(reporter.statistics.onDisk == 2)
        for _ in 0..<4 { reporter.receive(error(String(repeating: "c", count: 300))) }
        await reporter.waitForUploads()
        #expect(uploader.batches == 1 && uploader.storedEntries.count == 6)
    }

    @Test func aFatalEntryIsOnDiskBeforeTheLogCallReturns() throws {
        let directory = temporaryDirectory()
        let service = LogService()
        let reporter = try RemoteLogReporter(
            directory: directory, uploader: RecordingUploader(failures: Array(repeating: .before, count: 100)),
            strategy: CountPersistenceStrategy(maxMemoryCount: 100, waterline: 1000),
            sleep: { _ in try await Task.sleep(for: .seconds(3600)) })
        service.register(reporter, levels: [.error, .fatal])
        service.log(.error, "before the crash")
        service.log(.fatal, "the crash")
        // Read the directory as the next process would, without any flush.
        let store = try PendingLogStore(directory: directory)
        #expect(store.lines.map(\.entry.message) == ["before the crash", "the crash"])
    }

    /// The client's setting: errors too are on disk before the log call returns (a kill right
    /// after loses nothing), and they leave together within the upload delay, below the waterline.
    @Test func errorsCanBeWrittenAtOnceAndUploadedWithinADelay() async throws {
        let directory = temporaryDirectory()
        let uploader = RecordingUploader()
        let logs = LogService()
        let reporter = try RemoteLogReporter(
            directory: directory, uploader: uploader,
            strategy: CountPersistenceStrategy(maxMemoryCount: 100, waterline: 1_000),
            synchronousLevels: [.error], uploadDelay: .milliseconds(200))
        logs.register(reporter, levels: [.error, .fatal])
        logs.log(.error, "first")
        // Another reporter on the same directory (the next run) sees it already.
        #expect(try RemoteLogReporter(directory: directory, uploader: RecordingUploader()).statistics.onDisk == 1)
        logs.log(.error, "second")
        #expect(reporter.statistics.inMemory == 0 && reporter.statistics.onDisk == 2)
        #expect(uploader.batches == 0, "below the waterline nothing leaves at once")
        let deadline = ContinuousClock.now + .seconds(60)
        while uploader.batches == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        await reporter.waitForUploads()
        #expect(uploader.batches == 1 && uploader.storedEntries.map(\.message) == ["first", "second"])
        #expect(reporter.statistics.onDisk == 0)
    }

    @Test func diskIsCappedAndDropsAreReportedInTheNextBatch() async throws {
        let uploader = RecordingUploader()
        let reporter = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader,
            strategy: CountPersistenceStrategy(maxMemoryCount: 1, waterline: 1_000, maxDiskCount: 5), sleep: { _ in })
        for index in 1...8 { reporter.receive(error("\(index)")) }
        #expect(reporter.statistics.onDisk == 5 && reporter.statistics.droppedByCap == 3)
        try await reporter.uploadNow()
        let stored = uploader.storedEntries
        #expect(stored.first?.level == .warning && stored.first?.metadata?["dropped"] == "3")
        #expect(stored.dropFirst().map(\.message) == ["4", "5", "6", "7", "8"], "the oldest were dropped")
        #expect(reporter.statistics.droppedByCap == 0 && reporter.statistics.onDisk == 0)
    }

    @Test func failedUploadsBackOffAndRetryTheSameBatch() async throws {
        let uploader = RecordingUploader(failures: [.before, .afterStoring, .before])
        let sleeps = SleepLog()
        let reporter = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader,
            strategy: CountPersistenceStrategy(maxMemoryCount: 1, waterline: 1_000),
            retryBase: .seconds(1), retryMax: .seconds(3), sleep: sleeps.sleep)
        for index in 1...3 { reporter.receive(error("\(index)")) }
        try await reporter.uploadNow()
        #expect(sleeps.recorded == [.seconds(1), .seconds(2), .seconds(3)])
        #expect(Set(uploader.attempts).count == 1 && uploader.attempts.count == 4, "one batch id, four attempts")
        #expect(uploader.storedEntries.map(\.message) == ["1", "2", "3"], "stored once although acknowledged late")
        #expect(reporter.statistics.failedUploads == 3 && reporter.statistics.onDisk == 0)
    }

    @Test func anImpatientUploadGivesUpAndKeepsTheEntries() async throws {
        let uploader = RecordingUploader(failures: Array(repeating: .before, count: 10))
        let sleeps = SleepLog()
        let reporter = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader, retryBase: .seconds(1), sleep: sleeps.sleep)
        reporter.receive(error("kept"))
        await #expect(
            throws: RemoteLogUploadError.gaveUp(attempts: 3, lastError: "\(URLError(.notConnectedToInternet))")
        ) {
            try await reporter.uploadNow(maxConsecutiveFailures: 3)
        }
        #expect(sleeps.recorded == [.seconds(1), .seconds(2)] && reporter.statistics.onDisk == 1)
        #expect(RemoteLogUploadError.gaveUp(attempts: 3, lastError: "x").description.contains("stay on disk"))
    }

    @Test func backgroundUploadsRetryToo() async throws {
        let uploader = RecordingUploader(failures: [.before, .before])
        let reporter = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader,
            strategy: CountPersistenceStrategy(maxMemoryCount: 1, waterline: 2), sleep: { _ in })
        reporter.receive(error("a"))
        reporter.receive(error("b"))
        await reporter.waitForUploads()
        #expect(uploader.storedEntries.map(\.message) == ["a", "b"] && uploader.attempts.count == 3)
    }

    @Test func whatARunLeavesOnDiskIsUploadedAtTheNextStart() async throws {
        let directory = temporaryDirectory()
        do {
            let offline = RecordingUploader(failures: Array(repeating: .before, count: 10))
            let first = try RemoteLogReporter(
                directory: directory, uploader: offline,
                strategy: CountPersistenceStrategy(maxMemoryCount: 2, waterline: 1_000), sleep: { _ in })
            for index in 1...5 { first.receive(error("\(index)")) }
            first.flushToDisk()
            first.stop()
        }
        // A crash in the middle of a line leaves a fragment that must be skipped.
        let pending = directory.appendingPathComponent("pending.jsonl")
        let handle = try FileHandle(forWritingTo: pending)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"seq":99,"entry":{"lev"#.utf8))
        try handle.close()
        let uploader = RecordingUploader()
        let second = try RemoteLogReporter(directory: directory, uploader: uploader, sleep: { _ in })
        second.start()
        await second.waitForUploads()
        #expect(uploader.storedEntries.map(\.message) == ["1", "2", "3", "4", "5"])
        second.start()  // nothing left: no upload
        await second.waitForUploads()
        #expect(uploader.batches == 1)
    }

    @Test func anInterruptedBatchIsResentWithItsIdAfterARestart() async throws {
        let directory = temporaryDirectory()
        let uploader = RecordingUploader(failures: [.afterStoring])
        do {
            let first = try RemoteLogReporter(
                directory: directory, uploader: uploader,
                strategy: CountPersistenceStrategy(maxMemoryCount: 1, waterline: 1_000),
                sleep: { _ in throw CancellationError() })
            for index in 1...3 { first.receive(error("\(index)")) }
            await #expect(throws: CancellationError.self) { try await first.uploadNow() }
        }
        let second = try RemoteLogReporter(directory: directory, uploader: uploader, sleep: { _ in })
        second.receive(error("4"))
        try await second.uploadNow()
        #expect(uploader.attempts.count == 3 && uploader.attempts[0] == uploader.attempts[1])
        #expect(uploader.storedEntries.map(\.message) == ["1", "2", "3", "4"], "each entry stored once")
    }

    @Test func largeBacklogsGoOutInBoundedBatches() async throws {
        let uploader = RecordingUploader()
        let reporter = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader,
            strategy: CountPersistenceStrategy(maxMemoryCount: 50, waterline: 100_000), maxBatchEntries: 40,
            sleep: { _ in })
        for index in 0..<150 { reporter.receive(error("\(index)")) }
        try await reporter.uploadNow()
        #expect(uploader.batches == 4 && uploader.storedEntries.map(\.message) == (0..<150).map(String.init))
        let bytesBound = try RemoteLogReporter(
            directory: temporaryDirectory(), uploader: uploader, maxBatchBytes: 1_000, sleep: { _ in })
        for _ in 0..<10 { bytesBound.receive(error(String(repeating: "x", count: 400))) }
        try await bytesBound.uploadNow()
        #expect(uploader.batches >= 4 + 5)
    }
}
