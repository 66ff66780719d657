/// Work a reducer asks the store to do after it changed the state: nothing, an action to send
/// at once, async work that sends actions back, cancellation of earlier work, or several of
/// these. Effects are values, so reducers stay pure and tests can run them.
///
/// ```swift
/// case .refreshTapped:
///     state.isLoading = true
///     return .run { send in
///         await send(.loaded(try await client.timeline()))
///     } catch: { error, send in
///         await send(.failed(error.localizedDescription))
///     }
///     .cancellable(id: "refresh", cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
    indirect enum Operation: Sendable {
        case none
        case send(Action)
        case run(@Sendable (Send<Action>) async -> Void)
        case cancel(EffectID)
        case merge([Effect<Action>])
        case cancellable(EffectID, cancelInFlight: Bool, Effect<Action>)
    }

    let operation: Operation

    /// Nothing to do.
    public static var none: Effect { Effect(operation: .none) }

    /// Sends `action` right after the current one is reduced.
    public static func send(_ action: Action) -> Effect { Effect(operation: .send(action)) }

    /// Async work that may send actions back. A thrown error goes to `handler` (if any);
    /// cancellation ends the work quietly.
    public static func run(
        _ operation: @escaping @Sendable (Send<Action>) async throws -> Void,
        catch handler: (@Sendable (any Error, Send<Action>) async -> Void)? = nil
    ) -> Effect {
        Effect(
            operation: .run { send in
                do {
                    try await operation(send)
                } catch is CancellationError {
                } catch {
                    if Task.isCancelled { return }
                    await handler?(error, send)
                }
            })
    }

    /// Cancels the running effects marked with `id`.
    public static func cancel(id: some Hashable & Sendable) -> Effect { Effect(operation: .cancel(EffectID(id))) }

    /// All of these, started together.
    public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

    /// All of these, started together.
    public static func merge(_ effects: [Effect]) -> Effect { Effect(operation: .merge(effects)) }

    /// Marks this effect with `id` so `cancel(id:)` can stop it; with `cancelInFlight` starting
    /// it first cancels the earlier effects with the same id (a new search replaces the old).
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        Effect(operation: .cancellable(EffectID(id), cancelInFlight: cancelInFlight, self))
    }

    /// The same effect sending another action type (used when a parent embeds a child feature).
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Action) -> Other) -> Effect<Other> {
        switch operation {
        case .none: .none
        case .send(let action): .send(transform(action))
        case .run(let body): Effect<Other>(operation: .run { send in await body(Send { await send(transform($0)) }) })
        case .cancel(let id): Effect<Other>(operation: .cancel(id))
        case .merge(let effects): .merge(effects.map { $0.map(transform) })
        case .cancellable(let id, let inFlight, let effect):
            Effect<Other>(operation: .cancellable(id, cancelInFlight: inFlight, effect.map(transform)))
        }
    }
}

/// A cancellation identifier of any hashable, sendable type.
struct EffectID: Hashable, @unchecked Sendable {
    // Holds a `Hashable & Sendable` value; `AnyHashable` only loses the static Sendable proof.
    let value: AnyHashable
    init(_ value: some Hashable & Sendable) { self.value = AnyHashable(value) }
}

/// Sends actions from an effect back into the store. Actions sent after the effect was
/// cancelled are dropped.
public struct Send<Action: Sendable>: Sendable {
    let deliver: @Sendable (Action) async -> Void

    /// Wraps a delivery function (stores and test stores make these).
    public init(_ deliver: @escaping @Sendable (Action) async -> Void) { self.deliver = deliver }

    /// Sends `action` unless the effect was cancelled.
    public func callAsFunction(_ action: Action) async {
        guard !Task.isCancelled else { return }
        await deliver(action)
    }
}
