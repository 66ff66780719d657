import Foundation
import Testing

@testable import ChirpServer

/// The runner that lets the stores written once (async) run inside GRDB's synchronous closures.
/// Each test runs it on a dispatch queue of its own, as GRDB's closures run: never on a thread
/// of Swift's cooperative pool, which a waiting run would hold.
@Suite("Inline task runner")
struct InlineTaskRunnerTests {
    /// `body` run on a queue of its own, as GRDB runs a read or a write.
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "inline-task-runner-test").async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Something elsewhere the body may await: its work runs on the actor's executor, and the
    /// body resumes on the runner.
    actor Elsewhere {
        var calls = 0
        func bump() -> Int {
            calls += 1
            return calls
        }
    }

    struct Refused: Error, Equatable {}

    @Test func runsTheBodyOnTheCallingThreadAndReturnsItsValue() async throws {
        let (caller, seen) = try await onQueue {
            let caller = ThreadMarker.current
            return (
                caller, try InlineTaskRunner.run { () async throws -> (Int, UInt64) in (41 + 1, ThreadMarker.current) }
            )
        }
        #expect(seen.0 == 42)
        #expect(seen.1 == caller)
    }

    @Test func passesTheBodysErrorOn() async {
        await #expect(throws: Refused.self) {
            try await onQueue { try InlineTaskRunner.run { () async throws -> Int in throw Refused() } }
        }
    }

    @Test func resumesOnTheCallingThreadAfterAwaitingAnActor() async throws {
        let elsewhere = Elsewhere()
        let (caller, count, after) = try await onQueue {
            let caller = ThreadMarker.current
            let (count, after) = try InlineTaskRunner.run { () async throws -> (Int, UInt64) in
                var count = 0
                for _ in 0..<100 { count = await elsewhere.bump() }
                return (count, ThreadMarker.current)
            }
            return (caller, count, after)
        }
        #expect(count == 100)
        #expect(after == caller)
    }

    @Test func runsNestedInsideAnotherRun() async throws {
        let value = try await onQueue {
            try InlineTaskRunner.run { () async throws -> Int in
                try InlineTaskRunner.run { () async throws -> Int in 7 } * 6
            }
        }
        #expect(value == 42)
    }
}

/// The current thread's identity, readable from async code.
enum ThreadMarker {
    static var current: UInt64 { UInt64(pthread_self()) }
}
