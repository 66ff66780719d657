/// Why a module could not be loaded or resolved.
public enum ModuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No module type is registered under this identifier.
    case unknownModule(ModuleIdentifier)
    /// The module exists but is disabled by the configuration.
    case disabled(ModuleIdentifier)
    /// The module exists but does not provide the asked-for protocol.
    case typeMismatch(ModuleIdentifier, expected: String)
    /// Two module types claim one identifier.
    case duplicateIdentifier(ModuleIdentifier)
    /// The configuration names a module nobody registered.
    case unknownInConfiguration(ModuleIdentifier)
    /// The configuration file is not valid JSON of the expected shape.
    case invalidConfiguration(String)
    /// `resolve` was called before `loadModules`.
    case notLoaded
    /// A module needs a value the app did not put in the environment.
    case missingEnvironment(String)

    public var description: String {
        switch self {
        case .unknownModule(let id): "no module is registered as '\(id)'"
        case .disabled(let id): "module '\(id)' is disabled by the configuration"
        case .typeMismatch(let id, let expected): "module '\(id)' does not provide \(expected)"
        case .duplicateIdentifier(let id): "two modules are registered as '\(id)'"
        case .unknownInConfiguration(let id): "the configuration names '\(id)', which no module registered"
        case .invalidConfiguration(let reason): "invalid module configuration: \(reason)"
        case .notLoaded: "modules are not loaded yet; call loadModules() at start-up"
        case .missingEnvironment(let type): "no \(type) in the module environment; set it before loadModules()"
        }
    }
}
