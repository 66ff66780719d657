import Foundation
import Synchronization

/// The app's files, with one directory per user: logging in switches to that user's context,
/// logging out wipes it. The current user is remembered across launches.
///
/// ```swift
/// let app = try AppContext(root: URL(fileURLWithPath: NSHomeDirectory() + "/.chirp"))
/// let alice = try app.switchUser(to: "alice")
/// try alice.saveToken(token)            // users/alice/token, mode 0600
/// try app.logout()                      // users/alice/ is gone
/// ```
public final class AppContext: Sendable {
    /// The app's directory.
    public let root: URL
    private let current = Mutex<UserContext?>(nil)

    /// Opens (creating if needed) the app directory and restores the current user, if any.
    public init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if let name = try? String(contentsOf: currentUserFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines),
            !name.isEmpty,
            FileManager.default.fileExists(atPath: usersDirectory.appendingPathComponent(Self.directoryName(name)).path)
        {
            current.withLock {
                $0 = UserContext(
                    username: name, directory: usersDirectory.appendingPathComponent(Self.directoryName(name)))
            }
        }
    }

    private var usersDirectory: URL { root.appendingPathComponent("users") }
    private var currentUserFile: URL { root.appendingPathComponent("current-user") }

    /// The user whose context is active.
    public var currentUser: UserContext? { current.withLock { $0 } }

    /// Makes `username`'s context the active one (creating its directory) and remembers it.
    @discardableResult
    public func switchUser(to username: String) throws -> UserContext {
        let directory = usersDirectory.appendingPathComponent(Self.directoryName(username))
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(username.utf8).write(to: currentUserFile, options: .atomic)
        let context = UserContext(username: username, directory: directory)
        current.withLock { $0 = context }
        return context
    }

    /// Wipes the current user's directory (database, token, settings) and forgets them.
    public func logout() throws {
        guard
            let user = current.withLock({ context -> UserContext? in
                defer { context = nil }
                return context
            })
        else { return }
        try? FileManager.default.removeItem(at: currentUserFile)
        if FileManager.default.fileExists(atPath: user.directory.path) {
            try FileManager.default.removeItem(at: user.directory)
        }
    }

    /// Names of users with a context on disk.
    public var knownUsers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: usersDirectory.path)) ?? []).sorted()
    }

    /// A file-system-safe directory name for a username (case-insensitive, as usernames are).
    static func directoryName(_ username: String) -> String {
        let lowered = username.lowercased()
        return String(
            lowered.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "_" ? Character($0) : "-" })
    }
}

/// One user's files: a database path, the session token (mode 0600) and settings.
public struct UserContext: Sendable, Hashable {
    /// The user's name as registered.
    public let username: String
    /// The user's directory.
    public let directory: URL

    /// Where this user's local database lives.
    public var databaseURL: URL { directory.appendingPathComponent("client.sqlite") }
    private var tokenURL: URL { directory.appendingPathComponent("token") }
    private var settingsURL: URL { directory.appendingPathComponent("settings.json") }

    /// The stored session token.
    public func token() -> String? {
        (try? String(contentsOf: tokenURL, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Stores the session token readable by the owner only (0600).
    public func saveToken(_ token: String) throws {
        FileManager.default.createFile(atPath: tokenURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenURL.path)
        let handle = try FileHandle(forWritingTo: tokenURL)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(token.utf8))
        try handle.close()
    }

    /// All settings.
    public func settings() -> [String: String] {
        guard let data = try? Data(contentsOf: settingsURL) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }

    /// One setting.
    public func setting(_ key: String) -> String? { settings()[key] }

    /// Sets (or with nil removes) a setting.
    public func setSetting(_ key: String, to value: String?) throws {
        var all = settings()
        all[key] = value
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(all).write(to: settingsURL, options: .atomic)
    }
}
