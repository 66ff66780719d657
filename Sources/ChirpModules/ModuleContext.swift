/// What a module gets when it loads: the manager (to resolve other modules' services), the
/// app's router (to register its routes), and the values the app put in the environment (its
/// network client, its files …).
public struct ModuleContext: Sendable {
    /// Resolves other modules' services.
    public let manager: ModuleManager
    /// Where routes are registered.
    public let router: Router
    /// Values the app provides to modules.
    public let environment: ModuleEnvironment

    /// A context for modules of `manager` registering on `router`.
    public init(manager: ModuleManager, router: Router, environment: ModuleEnvironment = ModuleEnvironment()) {
        self.manager = manager
        self.router = router
        self.environment = environment
    }
}

/// App-provided values for modules, one per type: `environment.set(apiClient)`, then in a
/// module `try context.environment.require(APIClient.self)`.
public struct ModuleEnvironment: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// An empty environment.
    public init() {}

    /// Stores a value under its type.
    public mutating func set<Value: Sendable>(_ value: Value) {
        values[ObjectIdentifier(Value.self)] = value
    }

    /// The value stored for a type.
    public func get<Value: Sendable>(_ type: Value.Type) -> Value? {
        values[ObjectIdentifier(Value.self)] as? Value
    }

    /// The value stored for a type, or an error naming it.
    public func require<Value: Sendable>(_ type: Value.Type) throws(ModuleError) -> Value {
        guard let value = get(type) else { throw .missingEnvironment(String(describing: Value.self)) }
        return value
    }
}
