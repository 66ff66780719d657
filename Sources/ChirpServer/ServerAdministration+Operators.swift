import ChirpModels
import Foundation

extension ServerAdministration {
    /// Makes `username` one of the server's operators (or no longer one), in the database
    /// `configuration` names, while the server runs or not; the audit log records it with the
    /// command line as the actor. Returns whether it changed anything.
    public static func setOperator(configuration: ServerConfiguration, username: String, _ isOperator: Bool)
        async throws -> Bool
    {
        guard Validation.isPossibleUsername(username) else { throw AdministrationError("there is no user \(username)") }
        let key = Validation.usernameKey(username)
        let changed = try await read(configuration) { storage in
            try await storage.setOperator(usernameKey: key, isOperator, by: .commandLine, at: .now())
        }
        guard let changed else { throw AdministrationError("there is no user \(username)") }
        return changed
    }
}
