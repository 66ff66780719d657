/// Names a module; apps declare their identifiers as static constants:
/// `extension ModuleIdentifier { static let accounts: ModuleIdentifier = "accounts" }`.
public struct ModuleIdentifier: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String
    /// Creates an identifier from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates an identifier from a literal name.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// Decodes the bare name.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the bare name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
}

/// A feature of the app. Modules never import each other: they offer services by conforming to
/// protocols that others `resolve` through the `ModuleManager`, and register their routes when
/// loaded.
public protocol Module: AnyObject, Sendable {
    /// The module's name, unique in the app.
    static var identifier: ModuleIdentifier { get }
    /// Modules are created by the manager.
    init()
    /// Called once, in load order, after every enabled module was created: register routes
    /// and keep what you need from the context.
    func moduleDidLoad(_ context: ModuleContext)
}

extension Module {
    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {}
}
