import ChirpStore
import Foundation
import Testing

/// Runs a reducer the way `Store` does and makes tests exhaustive: every `send` and `receive`
/// states exactly how the state changes (any other change fails), every action an effect sends
/// must be `receive`d in order, and `finish()` fails if effects are still running or actions
/// were left unreceived.
///
/// ```swift
/// let store = TestStore(initialState: Login.State(), reducer: Login(client: .failing))
/// await store.send(.submit) { $0.isLoading = true }
/// await store.receive(.failed("wrong password")) { $0.isLoading = false; $0.error = "wrong password" }
/// await store.finish()
/// ```
@MainActor
public final class TestStore<State: Sendable & Equatable, Action: Sendable> {
    /// The state after the last `send` or `receive`.
    public private(set) var state: State
    private let reducer: any Reducer<State, Action>
    private var received: [Action] = []
    private var running: [UUID: Task<Void, Never>] = [:]
    private var cancellable: [AnyHashable: Set<UUID>] = [:]
    /// How long `receive` and `finish` wait for effects.
    public var timeout: Duration

    /// A test store for `reducer` from `initialState`.
    public init<R: Reducer>(initialState: State, reducer: R, timeout: Duration = .seconds(2))
    where R.State == State, R.Action == Action {
        state = initialState
        self.reducer = reducer
        self.timeout = timeout
    }

    /// Sends an action; `update` must turn the previous state into the new one exactly.
    public func send(
        _ action: Action, _ update: ((inout State) -> Void)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        if !received.isEmpty {
            Issue.record(
                "Must receive \(received.count) action(s) before sending \(action): \(received)",
                sourceLocation: sourceLocation)
        }
        reduce(action, update, sourceLocation: sourceLocation)
        await Task.yield()
    }

    /// Waits for the next action an effect sent, checks it matches, and reduces it; `update`
    /// must describe the state change exactly.
    public func receive(
        _ matches: (Action) -> Bool, _ update: ((inout State) -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let deadline = ContinuousClock.now + timeout
        while received.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        guard !received.isEmpty else {
            Issue.record(
                "Expected an action from an effect; none arrived within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        let action = received.removeFirst()
        guard matches(action) else {
            Issue.record("Received \(action), which is not the expected action", sourceLocation: sourceLocation)
            return
        }
        reduce(action, update, sourceLocation: sourceLocation)
        await Task.yield()
    }

    /// Fails unless every effect has finished (waiting up to `timeout`) and every action they
    /// sent was received.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + timeout
        while !running.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        if !running.isEmpty {
            Issue.record("\(running.count) effect(s) still running after \(timeout)", sourceLocation: sourceLocation)
            for task in running.values { task.cancel() }
        }
        if !received.isEmpty {
            Issue.record(
                "\(received.count) action(s) from effects were never received: \(received)",
                sourceLocation: sourceLocation)
        }
    }

    /// Cancels the effects still running (for features with long-lived effects), then checks
    /// nothing is left to receive.
    public func cancelRemainingEffects() {
        for task in running.values { task.cancel() }
        running.removeAll()
    }

    private func reduce(_ action: Action, _ update: ((inout State) -> Void)?, sourceLocation: SourceLocation) {
        var expected = state
        update?(&expected)
        var actual = state
        let effect = reducer.reduce(into: &actual, action: action)
        if actual != expected {
            Issue.record(
                "State after \(action) differs from the expected one:\n\(StateDiff.lines(expected: expected, actual: actual))",
                sourceLocation: sourceLocation)
        }
        state = actual
        start(effect)
    }

    private func start(_ effect: Effect<Action>) {
        EffectInterpreter.interpret(
            effect,
            onSend: { [weak self] action in
                // A `.send` effect: received like any other action from an effect.
                self?.received.append(action)
            },
            onCancel: { [weak self] id in
                guard let self else { return }
                for taskID in self.cancellable[id] ?? [] { self.running[taskID]?.cancel() }
            },
            onRun: { [weak self] body, ids in
                guard let self else { return }
                let taskID = UUID()
                let send = Send<Action> { [weak self] action in await self?.enqueue(action) }
                let task = Task { @MainActor [weak self] in
                    await body(send)
                    self?.running[taskID] = nil
                }
                self.running[taskID] = task
                for id in ids { self.cancellable[id, default: []].insert(taskID) }
            })
    }

    private func enqueue(_ action: Action) { received.append(action) }
}

extension TestStore where Action: Equatable {
    /// Waits for `expected` from an effect and reduces it; `update` describes the change.
    public func receive(
        _ expected: Action, _ update: ((inout State) -> Void)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await receive({ $0 == expected }, update, sourceLocation: sourceLocation)
    }
}

/// A readable difference between two values: the lines of `dump` that differ.
enum StateDiff {
    static func lines<T>(expected: T, actual: T) -> String {
        var left = ""
        var right = ""
        dump(expected, to: &left)
        dump(actual, to: &right)
        let a = left.split(separator: "\n")
        let b = right.split(separator: "\n")
        var out: [String] = []
        for index in 0..<max(a.count, b.count) {
            let l = index < a.count ? String(a[index]) : ""
            let r = index < b.count ? String(b[index]) : ""
            if l != r {
                out.append("  − expected: \(l.trimmingCharacters(in: .whitespaces))")
                out.append("  + actual:   \(r.trimmingCharacters(in: .whitespaces))")
            }
        }
        return out.joined(separator: "\n")
    }
}
