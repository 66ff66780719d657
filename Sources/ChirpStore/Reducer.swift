/// A feature's logic: how an action changes the state, and what effect follows.
///
/// ```swift
/// struct Counter: Reducer {
///     struct State: Equatable { var count = 0 }
///     enum Action { case increment, reset }
///     func reduce(into state: inout State, action: Action) -> Effect<Action> {
///         switch action {
///         case .increment: state.count += 1
///         case .reset: state.count = 0
///         }
///         return .none
///     }
/// }
/// ```
public protocol Reducer<State, Action>: Sendable {
    associatedtype State: Sendable
    associatedtype Action: Sendable
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}

/// A reducer from a closure.
public struct Reduce<State: Sendable, Action: Sendable>: Reducer {
    let body: @Sendable (inout State, Action) -> Effect<Action>
    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (inout State, Action) -> Effect<Action>) { self.body = body }
    public func reduce(into state: inout State, action: Action) -> Effect<Action> { body(&state, action) }
}

/// How a parent's action carries a child's: `embed` wraps, `extract` unwraps (nil for the
/// parent's other actions). With an enum case, both are one line:
/// `ActionLink(embed: Parent.Action.login, extract: { if case .login(let a) = $0 { a } else { nil } })`.
public struct ActionLink<Parent: Sendable, Child: Sendable>: Sendable {
    public let embed: @Sendable (Child) -> Parent
    public let extract: @Sendable (Parent) -> Child?
    /// Creates a link.
    public init(embed: @escaping @Sendable (Child) -> Parent, extract: @escaping @Sendable (Parent) -> Child?) {
        self.embed = embed
        self.extract = extract
    }
}

/// Runs a child feature's reducer on a part of the parent's state, for the parent's actions
/// that carry a child action; effects come back wrapped as parent actions.
public struct Scope<ParentState: Sendable, ParentAction: Sendable, Child: Reducer>: Reducer {
    let state: any WritableKeyPath<ParentState, Child.State> & Sendable
    let action: ActionLink<ParentAction, Child.Action>
    let child: Child

    /// Scopes `child` to `state` and `action`.
    public init(
        state: any WritableKeyPath<ParentState, Child.State> & Sendable, action: ActionLink<ParentAction, Child.Action>,
        child: Child
    ) {
        self.state = state
        self.action = action
        self.child = child
    }

    public func reduce(into parent: inout ParentState, action parentAction: ParentAction) -> Effect<ParentAction> {
        guard let childAction = action.extract(parentAction) else { return .none }
        return child.reduce(into: &parent[keyPath: state], action: childAction).map(action.embed)
    }
}

/// Several reducers in order on the same state; their effects are merged.
public struct CombineReducers<State: Sendable, Action: Sendable>: Reducer {
    let reducers: [any Reducer<State, Action>]
    /// Combines `reducers`, run in this order.
    public init(_ reducers: [any Reducer<State, Action>]) { self.reducers = reducers }
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        .merge(reducers.map { $0.reduce(into: &state, action: action) })
    }
}
