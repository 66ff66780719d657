import ChirpModules
import Foundation
import Synchronization
import Testing

final class Trace: Sendable {
    private let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

@Suite("Initiator")
struct InitiatorTests {
    @Test func aGraphOfTwentyFiveRunsInDependencyOrder() async throws {
        // A layered graph: operation i depends on up to three earlier ones.
        let trace = Trace()
        var operations: [InitiatorOperation] = []
        var dependencies: [String: [String]] = [:]
        for index in 0..<25 {
            let id = "op\(index)"
            let deps =
                index == 0 ? [] : Array(Set([index / 2, (index * 7) % index, index - 1].map { "op\($0)" })).sorted()
            dependencies[id] = deps
            operations.append(
                InitiatorOperation(id, priority: index % 3, dependsOn: deps) {
                    trace.record("start \(id)")
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...3)))
                    trace.record("end \(id)")
                })
        }
        let report = try await Initiator(operations: operations.shuffled()).run()
        #expect(report.isSuccess && report.succeeded.count == 25)
        let events = trace.all
        for (id, deps) in dependencies {
            let start = events.firstIndex(of: "start \(id)")!
            for dep in deps {
                #expect(events.firstIndex(of: "end \(dep)")! < start, "\(dep) finished before \(id) started")
            }
        }
    }

    @Test func independentOperationsRunTogether() async throws {
        // Each waits for the other to have started: finishes only if they run concurrently.
        let first = AsyncStream<Void>.makeStream()
        let second = AsyncStream<Void>.makeStream()
        let report = try await Initiator(operations: [
            InitiatorOperation("a") {
                first.continuation.yield()
                var iterator = second.stream.makeAsyncIterator()
                await iterator.next()
            },
            InitiatorOperation("b") {
                second.continuation.yield()
                var iterator = first.stream.makeAsyncIterator()
                await iterator.next()
            },
        ]).run()
        #expect(Set(report.succeeded) == ["a", "b"])
    }

    @Test func higherPriorityStartsFirstAmongReadyOperations() async throws {
        let report = try await Initiator(
            operations: [
                InitiatorOperation("low", priority: 1) {},
                InitiatorOperation("high", priority: 9) {},
                InitiatorOperation("middle", priority: 5) {},
                InitiatorOperation("after", priority: 100, dependsOn: ["low"]) {},
            ], maxConcurrent: 1
        ).run()
        #expect(report.started == ["high", "middle", "low", "after"])
        #expect(report.succeeded == ["high", "middle", "low", "after"])
    }

    @Test func cyclesAndMissingDependenciesFailBeforeAnythingRuns() async throws {
        let trace = Trace()
        let cycle = Initiator(operations: [
            InitiatorOperation("start") { trace.record("start") },
            InitiatorOperation("A", dependsOn: ["C"]) { trace.record("A") },
            InitiatorOperation("B", dependsOn: ["A"]) { trace.record("B") },
            InitiatorOperation("C", dependsOn: ["B"]) { trace.record("C") },
        ])
        do {
            _ = try await cycle.run()
            Issue.record("a cycle must be refused")
        } catch {
            guard case .cycle(let path) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(Set(path) == ["A", "B", "C"] && path.count == 4 && path.first == path.last)
            #expect(error.description.contains(" → "))
        }
        await #expect(throws: InitiatorError.missingDependency(operation: "x", dependency: "ghost")) {
            try await Initiator(operations: [
                InitiatorOperation("y") { trace.record("y") }, InitiatorOperation("x", dependsOn: ["ghost"]) {},
            ]).run()
        }
        await #expect(throws: InitiatorError.duplicateOperation("x")) {
            try await Initiator(operations: [InitiatorOperation("x") {}, InitiatorOperation("x") {}]).run()
        }
        #expect(trace.all.isEmpty, "nothing ran")
        #expect(throws: InitiatorError.cycle(["self", "self"])) {
            try Initiator(operations: [InitiatorOperation("self", dependsOn: ["self"]) {}]).validate()
        }
    }

    @Test func aFailureSkipsItsDependentsAndTheRestRuns() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk missing" } }
        let report = try await Initiator(operations: [
            InitiatorOperation("database") { throw Broken() },
            InitiatorOperation("session", dependsOn: ["database"]) {},
            InitiatorOperation("sync", dependsOn: ["session"]) {},
            InitiatorOperation("logging") {},
            InitiatorOperation("theme", dependsOn: ["logging"]) {},
        ]).run()
        #expect(report.failed == ["database": "disk missing"])
        #expect(Set(report.skipped) == ["session", "sync"])
        #expect(Set(report.succeeded) == ["logging", "theme"] && !report.isSuccess)
    }
}
