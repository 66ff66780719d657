import Synchronization

/// Registers module types, loads the enabled ones in order, and resolves a service by module
/// identifier to a protocol: `try manager.resolve(.accounts, as: AccountService.self)`.
public final class ModuleManager: Sendable {
    private struct State {
        var types: [(id: ModuleIdentifier, type: any Module.Type)] = []
        var loaded: [ModuleIdentifier: any Module] = [:]
        var loadOrder: [ModuleIdentifier] = []
        var disabled: Set<ModuleIdentifier> = []
        var isLoaded = false
    }

    private let state = Mutex(State())

    /// An empty manager.
    public init() {}

    /// Makes a module type known (before `loadModules`).
    public func register(_ type: any Module.Type) throws(ModuleError) {
        try state.withLock { (state: inout State) throws(ModuleError) in
            guard !state.types.contains(where: { $0.id == type.identifier }) else {
                throw .duplicateIdentifier(type.identifier)
            }
            state.types.append((type.identifier, type))
        }
    }

    /// Creates the enabled modules in configured order, then calls each one's
    /// `moduleDidLoad` in the same order. Returns the identifiers loaded.
    @discardableResult
    public func loadModules(
        configuration: ModuleConfiguration? = nil, router: Router, environment: ModuleEnvironment = ModuleEnvironment()
    ) throws(ModuleError) -> [ModuleIdentifier] {
        let (order, disabled, types) = try state.withLock {
            (state: inout State) throws(ModuleError) -> (
                [ModuleIdentifier], Set<ModuleIdentifier>, [ModuleIdentifier: any Module.Type]
            ) in
            let types = Dictionary(state.types.map { ($0.id, $0.type) }, uniquingKeysWith: { first, _ in first })
            var order: [ModuleIdentifier] = []
            var disabled: Set<ModuleIdentifier> = []
            for entry in configuration?.modules ?? [] {
                guard types[entry.id] != nil else { throw .unknownInConfiguration(entry.id) }
                if entry.enabled { order.append(entry.id) } else { disabled.insert(entry.id) }
            }
            for (id, _) in state.types where !order.contains(id) && !disabled.contains(id) {
                order.append(id)
            }
            return (order, disabled, types)
        }
        let modules = order.map { id in (id, types[id]!.init()) }
        state.withLock { state in
            for (id, module) in modules { state.loaded[id] = module }
            state.loadOrder = order
            state.disabled = disabled
            state.isLoaded = true
        }
        let context = ModuleContext(manager: self, router: router, environment: environment)
        for (_, module) in modules { module.moduleDidLoad(context) }
        return order
    }

    /// The loaded module under `identifier`, as the protocol `type`.
    public func resolve<Service>(_ identifier: ModuleIdentifier, as type: Service.Type) throws(ModuleError) -> Service {
        let (module, known, disabled, loaded) = state.withLock { state in
            (
                state.loaded[identifier], state.types.contains { $0.id == identifier },
                state.disabled.contains(identifier), state.isLoaded
            )
        }
        guard loaded else { throw .notLoaded }
        guard let module else {
            throw known && disabled ? .disabled(identifier) : .unknownModule(identifier)
        }
        guard let service = module as? Service else {
            throw .typeMismatch(identifier, expected: String(describing: Service.self))
        }
        return service
    }

    /// The identifiers loaded, in load order.
    public var loadedModules: [ModuleIdentifier] { state.withLock { $0.loadOrder } }
}
