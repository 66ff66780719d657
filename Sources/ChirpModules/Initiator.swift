import Synchronization

/// One start-up step: an id, a priority (higher starts first among steps that are ready), the
/// ids it depends on, and the work.
public struct InitiatorOperation: Sendable {
    /// The module, or the step's id.
    public var id: String
    /// Higher starts first among ready steps.
    public var priority: Int
    /// Ids that must succeed first.
    public var dependencies: [String]
    /// What the step does.
    public var work: @Sendable () async throws -> Void

    /// Creates a step.
    public init(
        _ id: String, priority: Int = 0, dependsOn dependencies: [String] = [],
        work: @escaping @Sendable () async throws -> Void
    ) {
        self.id = id
        self.priority = priority
        self.dependencies = dependencies
        self.work = work
    }
}

/// What a start-up run did.
public struct InitiatorReport: Sendable, Hashable {
    /// Steps in the order they started.
    public var started: [String] = []
    /// Steps that finished without error, in finishing order.
    public var succeeded: [String] = []
    /// Steps that threw, with the error's description.
    public var failed: [String: String] = [:]
    /// Steps not run because something they depend on failed or was skipped.
    public var skipped: [String] = []

    /// Whether every step succeeded.
    public var isSuccess: Bool { failed.isEmpty && skipped.isEmpty }
}

/// Why a start-up graph cannot run; detected before any step runs.
public enum InitiatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A step depends on an id no step has.
    case missingDependency(operation: String, dependency: String)
    /// Steps depend on each other in a circle, named in order (`A → B → C → A`).
    case cycle([String])
    /// Two steps share an id.
    case duplicateOperation(String)

    public var description: String {
        switch self {
        case .missingDependency(let operation, let dependency):
            "'\(operation)' depends on '\(dependency)', which no operation provides"
        case .cycle(let path): "dependency cycle: \(path.joined(separator: " → "))"
        case .duplicateOperation(let id): "two operations are called '\(id)'"
        }
    }
}

/// Runs start-up operations in dependency order: independent ones concurrently (up to
/// `maxConcurrent`), higher priority first among those ready, each after everything it depends
/// on succeeded. A failed step is reported and its dependents are skipped; the rest still run.
///
/// ```swift
/// let report = try await Initiator(operations: [
///     InitiatorOperation("database") { try await openDatabase() },
///     InitiatorOperation("session", dependsOn: ["database"]) { try await restoreSession() },
///     InitiatorOperation("logging", priority: 10) { startLogging() },
/// ]).run()
/// ```
public struct Initiator: Sendable {
    /// The steps to run.
    public let operations: [InitiatorOperation]
    /// Steps running at once at most.
    public let maxConcurrent: Int

    /// A run of these operations, at most `maxConcurrent` at a time.
    public init(operations: [InitiatorOperation], maxConcurrent: Int = .max) {
        self.operations = operations
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Checks the graph (duplicates, missing dependencies, cycles) without running anything.
    public func validate() throws(InitiatorError) {
        var ids: Set<String> = []
        for operation in operations {
            guard ids.insert(operation.id).inserted else { throw .duplicateOperation(operation.id) }
        }
        for operation in operations {
            for dependency in operation.dependencies where !ids.contains(dependency) {
                throw .missingDependency(operation: operation.id, dependency: dependency)
            }
        }
        let byId = Dictionary(uniqueKeysWithValues: operations.map { ($0.id, $0) })
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var path: [String] = []
        func visit(_ id: String) throws(InitiatorError) {
            if state[id] == 2 { return }
            if state[id] == 1 {
                let start = path.firstIndex(of: id)!
                throw .cycle(Array(path[start...]) + [id])
            }
            state[id] = 1
            path.append(id)
            for dependency in byId[id]!.dependencies { try visit(dependency) }
            path.removeLast()
            state[id] = 2
        }
        for operation in operations { try visit(operation.id) }
    }

    /// Validates, then runs every operation; returns what happened.
    public func run() async throws(InitiatorError) -> InitiatorReport {
        try validate()
        var report = InitiatorReport()
        var remaining = Dictionary(uniqueKeysWithValues: operations.map { ($0.id, $0) })
        var done: Set<String> = []
        var blocked: Set<String> = []

        await withTaskGroup(of: (String, String?).self) { group in
            var running = 0
            func startReady() {
                let ready = remaining.values
                    .filter { $0.dependencies.allSatisfy(done.contains) }
                    .sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.id < $1.id }
                for operation in ready where running < maxConcurrent {
                    remaining[operation.id] = nil
                    report.started.append(operation.id)
                    running += 1
                    group.addTask {
                        do {
                            try await operation.work()
                            return (operation.id, nil)
                        } catch {
                            return (operation.id, String(describing: error))
                        }
                    }
                }
            }
            func skipDependents(of failed: String) {
                var frontier = [failed]
                while let id = frontier.popLast() {
                    for dependent in remaining.values
                    where dependent.dependencies.contains(id) && !blocked.contains(dependent.id) {
                        blocked.insert(dependent.id)
                        remaining[dependent.id] = nil
                        report.skipped.append(dependent.id)
                        frontier.append(dependent.id)
                    }
                }
            }
            startReady()
            while let (id, failure) = await group.next() {
                running -= 1
                if let failure {
                    report.failed[id] = failure
                    skipDependents(of: id)
                } else {
                    report.succeeded.append(id)
                    done.insert(id)
                }
                startReady()
            }
        }
        return report
    }
}
