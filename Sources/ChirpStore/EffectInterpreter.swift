/// Walks an effect and reports each thing it asks for, so that a runner (the `Store`, a test
/// store) only decides how to do each one.
public enum EffectInterpreter {
    /// - Parameters:
    ///   - onSend: an action to reduce right after the current one.
    ///   - onCancel: cancel the running effects marked with this id.
    ///   - onRun: start this work, marked with these cancellation ids.
    @MainActor
    public static func interpret<Action: Sendable>(
        _ effect: Effect<Action>,
        onSend: (Action) -> Void,
        onCancel: (AnyHashable) -> Void,
        onRun: (@escaping @Sendable (Send<Action>) async -> Void, [AnyHashable]) -> Void
    ) {
        walk(effect, ids: [], onSend: onSend, onCancel: onCancel, onRun: onRun)
    }

    @MainActor
    private static func walk<Action: Sendable>(
        _ effect: Effect<Action>, ids: [AnyHashable],
        onSend: (Action) -> Void, onCancel: (AnyHashable) -> Void,
        onRun: (@escaping @Sendable (Send<Action>) async -> Void, [AnyHashable]) -> Void
    ) {
        switch effect.operation {
        case .none:
            break
        case .send(let action):
            onSend(action)
        case .cancel(let id):
            onCancel(id.value)
        case .merge(let effects):
            for effect in effects { walk(effect, ids: ids, onSend: onSend, onCancel: onCancel, onRun: onRun) }
        case .cancellable(let id, let cancelInFlight, let inner):
            if cancelInFlight { onCancel(id.value) }
            walk(inner, ids: ids + [id.value], onSend: onSend, onCancel: onCancel, onRun: onRun)
        case .run(let body):
            onRun(body, ids)
        }
    }
}
