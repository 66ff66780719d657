import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One `chirp bench connections --database` run: several started instances on one PostgreSQL
/// database, and the streams held by several worker processes (no process may hold more
/// descriptors than its hard limit). Stream i goes to instance i % instances; the workers take
/// consecutive shares of the streams. Every process reads the same CLOCK_MONOTONIC, so the
/// workers time deliveries against the send stamps the bench puts in the texts, and send back
/// their histograms to be merged.
struct ConnectionsClusterRun {
    let instances: [ChildServer]
    /// The JSON file of the plan's accounts, for the workers.
    let accountsFile: URL
    let plan: ConnectionsPlan
    let workers: Int
    let progress: (String) -> Void

    func run() async throws -> ConnectionsReport {
        // A worker that died must not take the bench with it when it is written to.
        signal(SIGPIPE, SIG_IGN)
        let clock = LoadClock()
        try await Task.sleep(for: .milliseconds(500))
        var report = ConnectionsReport(plan: plan)
        report.instances = instances.count
        report.workers = workers
        report.serverRSSBeforeBytes = Self.sum(instances.map(\.residentBytes))

        let count = plan.count
        progress("opening \(count) event streams from \(workers) workers on \(instances.count) instances")
        let shares = (0..<workers).map { index in (index * count / workers)..<((index + 1) * count / workers) }
        var started: [ConnectionsWorkerProcess] = []
        do {
            for share in shares {
                started.append(
                    try ConnectionsWorkerProcess(
                        arguments: [
                            "--accounts", accountsFile.path, "--first", String(share.lowerBound), "--count",
                            String(share.count),
                            "--streams-per-user", String(plan.streamsPerUser), "--per-address", String(plan.perAddress),
                            "--in-flight", String(plan.inFlight),
                            "--clock-start", String(clock.start),
                        ] + instances.flatMap { ["--server", $0.baseURL.absoluteString] }))
            }
            var opened: [ConnectionsWorkerStatus] = []
            for worker in started { opened.append(try await worker.status(0, timeout: .seconds(1800))) }
            let start = opened.map(\.openingStartMicroseconds).min() ?? 0
            let end = opened.map(\.openingEndMicroseconds).max() ?? 0
            report.record(
                opened: opened.map(\.opened).reduce(0, +), failed: opened.map(\.failed).reduce(0, +),
                retried: opened.map(\.retried).reduce(0, +), firstFailure: opened.compactMap(\.firstFailure).first,
                seconds: Double(end - start) / 1e6)
            let idleCPU = Self.sum(instances.map(\.cpuSeconds))
            try await Task.sleep(for: .seconds(2))
            report.serverIdleCores = idleCPU.flatMap { start in
                Self.sum(instances.map(\.cpuSeconds)).map { ($0 - start) / 2 }
            }
            report.instanceRSSAfterBytes = instances.compactMap(\.residentBytes)
            report.serverRSSAfterBytes = Self.sum(instances.map(\.residentBytes))
            let held = try await ask(started, .status)
            report.held = held.map(\.held).reduce(0, +)
            report.workerRSSBytes = Self.sum(held.map(\.residentBytes))
            report.weigh()

            progress("sending \(plan.rate) messages/s for \(plan.seconds) s with \(report.held) streams open")
            let cpuAtStart = Self.sum(instances.map(\.cpuSeconds))
            let readsBefore = await ChildServer.total(ConnectionsRun.streamReads, of: instances)
            let sendingStarted = ContinuousClock.now
            let sending = try await ConnectionsSending(servers: instances.map(\.baseURL), plan: plan, clock: clock)
                .run()
            let cpuAtEnd = Self.sum(instances.map(\.cpuSeconds))
            let drain = ContinuousClock.now + .seconds(5)
            while try await ask(started, .status).map(\.delivered).reduce(0, +) < sending.expected,
                ContinuousClock.now < drain
            {
                try await Task.sleep(for: .milliseconds(100))
            }
            report.record(sending, cpuSeconds: cpuAtStart.flatMap { start in cpuAtEnd.map { $0 - start } })
            report.recordStreamReads(
                before: readsBefore, after: await ChildServer.total(ConnectionsRun.streamReads, of: instances),
                seconds: (ContinuousClock.now - sendingStarted).seconds)
            progress("closing")
            let final = try await ask(started, .report)
            let delivery = LatencyRecorder()
            for status in final { if let deliveries = status.deliveries { delivery.add(deliveries) } }
            report.delivery = delivery.summary
            report.undelivered = max(0, sending.expected - report.delivery.count)
            report.stillOpen = final.map(\.held).reduce(0, +)
        } catch {
            for worker in started { await worker.stop(timeout: .seconds(1)) }
            throw error
        }
        for worker in started { await worker.stop() }
        return report
    }

    /// Every worker's answer to `command`, asked of all at once.
    private func ask(_ workers: [ConnectionsWorkerProcess], _ command: ConnectionsWorkerStatus.Command) async throws
        -> [ConnectionsWorkerStatus]
    {
        try await withThrowingTaskGroup(of: ConnectionsWorkerStatus.self) { group in
            for worker in workers { group.addTask { try await worker.ask(command) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The sum, or nil when any is unknown.
    private static func sum<T: AdditiveArithmetic>(_ values: [T?]) -> T? {
        values.contains { $0 == nil } ? nil : values.compactMap { $0 }.reduce(.zero, +)
    }
}
