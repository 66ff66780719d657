import Foundation

/// Which modules load, and in what order, as read from JSON:
///
/// ```json
/// {"modules": [{"id": "accounts"}, {"id": "timeline", "enabled": false}, {"id": "messaging"}]}
/// ```
///
/// Listed modules load in the listed order; registered modules that are not listed load after
/// them, in registration order. `enabled` defaults to true.
public struct ModuleConfiguration: Sendable, Hashable, Codable {
    /// One module's entry.
    public struct Entry: Sendable, Hashable, Codable {
        /// The module, or the step's id.
        public var id: ModuleIdentifier
        /// Whether the module loads.
        public var enabled: Bool

        /// An entry; enabled unless said otherwise.
        public init(id: ModuleIdentifier, enabled: Bool = true) {
            self.id = id
            self.enabled = enabled
        }

        enum CodingKeys: String, CodingKey { case id, enabled }

        /// Decodes an entry; a missing `enabled` means true.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(ModuleIdentifier.self, forKey: .id)
            enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        }
    }

    /// The listed modules, in load order.
    public var modules: [Entry]

    /// A configuration listing these entries.
    public init(modules: [Entry]) {
        self.modules = modules
    }

    /// Parses the JSON form.
    public init(json: Data) throws(ModuleError) {
        do {
            self = try JSONDecoder().decode(ModuleConfiguration.self, from: json)
        } catch {
            throw .invalidConfiguration(String(describing: error))
        }
    }

    /// Reads a JSON file.
    public init(contentsOf url: URL) throws(ModuleError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .invalidConfiguration("cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(json: data)
    }
}
