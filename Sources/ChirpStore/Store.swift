import Foundation

/// Holds a feature's state, runs its reducer for each action, starts the effects the reducer
/// returns, and tells observers about every new state. One-way data flow: views read `state`
/// and `send` actions; nothing else changes the state.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), reducer: Counter())
/// let token = store.observe { render($0) }
/// store.send(.increment)
/// ```
@MainActor
public final class Store<State: Sendable, Action: Sendable> {
    private let core: any StoreCore<State, Action>

    /// A store running `reducer` from `initialState`.
    public init<R: Reducer>(initialState: State, reducer: R) where R.State == State, R.Action == Action {
        core = RootCore(state: initialState, reducer: reducer)
    }

    private init(core: any StoreCore<State, Action>) { self.core = core }

    /// The current state.
    public var state: State { core.state }

    /// Reduces `action` now, then starts its effects; the returned task finishes when they do.
    @discardableResult
    public func send(_ action: Action) -> StoreTask { core.send(action) }

    /// Calls `onChange` with every new state until the token is released or cancelled.
    public func observe(_ onChange: @escaping @MainActor (State) -> Void) -> ObservationToken { core.observe(onChange) }

    /// A store for a child feature: its state is derived from this one's, and its actions are
    /// sent here wrapped by `action`.
    public func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChild: @escaping @MainActor (State) -> ChildState,
        action fromChild: @escaping @Sendable (ChildAction) -> Action
    ) -> Store<ChildState, ChildAction> {
        Store<ChildState, ChildAction>(core: ScopedCore(parent: core, toChild: toChild, fromChild: fromChild))
    }

    /// Number of effects still running (for status bars and tests).
    public var runningEffects: Int { core.runningEffects }
}

/// The effects one `send` started.
public struct StoreTask: Sendable {
    let tasks: [Task<Void, Never>]

    /// Waits for the effects to finish.
    public func finish() async {
        for task in tasks { await task.value }
    }

    /// Cancels the effects.
    public func cancel() {
        for task in tasks { task.cancel() }
    }
}

/// Keeps an observation alive; release it (or call `cancel`) to stop.
@MainActor
public final class ObservationToken {
    private var onCancel: (() -> Void)?
    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }
    /// Stops the observation.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
    isolated deinit { cancel() }
}

@MainActor
protocol StoreCore<State, Action>: AnyObject {
    associatedtype State: Sendable
    associatedtype Action: Sendable
    var state: State { get }
    func send(_ action: Action) -> StoreTask
    func observe(_ onChange: @escaping @MainActor (State) -> Void) -> ObservationToken
    var runningEffects: Int { get }
}

/// The store that owns the state and runs the reducer.
@MainActor
final class RootCore<State: Sendable, Action: Sendable>: StoreCore {
    private(set) var state: State
    private let reducer: any Reducer<State, Action>
    private var queue: [Action] = []
    private var isReducing = false
    private var tasks: [UUID: Task<Void, Never>] = [:]
    private var cancellable: [AnyHashable: Set<UUID>] = [:]
    private var observers: [UUID: @MainActor (State) -> Void] = [:]

    init(state: State, reducer: some Reducer<State, Action>) {
        self.state = state
        self.reducer = reducer
    }

    var runningEffects: Int { tasks.count }

    func send(_ action: Action) -> StoreTask {
        queue.append(action)
        guard !isReducing else { return StoreTask(tasks: []) }
        isReducing = true
        var started: [Task<Void, Never>] = []
        while !queue.isEmpty {
            let next = queue.removeFirst()
            let effect = reducer.reduce(into: &state, action: next)
            started += run(effect)
        }
        isReducing = false
        for observer in observers.values { observer(state) }
        return StoreTask(tasks: started)
    }

    func observe(_ onChange: @escaping @MainActor (State) -> Void) -> ObservationToken {
        let id = UUID()
        observers[id] = onChange
        onChange(state)
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    private func run(_ effect: Effect<Action>) -> [Task<Void, Never>] {
        var started: [Task<Void, Never>] = []
        EffectInterpreter.interpret(
            effect, onSend: { queue.append($0) },
            onCancel: { id in
                for taskID in cancellable[id] ?? [] { tasks[taskID]?.cancel() }
            },
            onRun: { body, ids in
                let taskID = UUID()
                let send = Send<Action> { [weak self] action in await self?.deliver(action) }
                let task = Task { @MainActor [weak self] in
                    await body(send)
                    self?.finished(taskID, ids: ids)
                }
                tasks[taskID] = task
                for id in ids { cancellable[id, default: []].insert(taskID) }
                started.append(task)
            })
        return started
    }

    private func deliver(_ action: Action) {
        _ = send(action)
    }

    private func finished(_ taskID: UUID, ids: [AnyHashable]) {
        tasks[taskID] = nil
        for id in ids {
            cancellable[id]?.remove(taskID)
            if cancellable[id]?.isEmpty == true { cancellable[id] = nil }
        }
    }
}

/// A child's view of a parent store.
@MainActor
final class ScopedCore<ParentState: Sendable, ParentAction: Sendable, State: Sendable, Action: Sendable>: StoreCore {
    let parent: any StoreCore<ParentState, ParentAction>
    let toChild: @MainActor (ParentState) -> State
    let fromChild: @Sendable (Action) -> ParentAction

    init(
        parent: any StoreCore<ParentState, ParentAction>, toChild: @escaping @MainActor (ParentState) -> State,
        fromChild: @escaping @Sendable (Action) -> ParentAction
    ) {
        self.parent = parent
        self.toChild = toChild
        self.fromChild = fromChild
    }

    var state: State { toChild(parent.state) }
    var runningEffects: Int { parent.runningEffects }
    func send(_ action: Action) -> StoreTask { parent.send(fromChild(action)) }
    func observe(_ onChange: @escaping @MainActor (State) -> Void) -> ObservationToken {
        let toChild = self.toChild
        return parent.observe { onChange(toChild($0)) }
    }
}
