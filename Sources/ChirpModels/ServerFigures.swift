/// The server's figures for operators (`GET /v1/admin/stats`).
public struct ServerFigures: Sendable, Hashable, Codable {
    /// Accounts that exist (deleted ones left out), suspended ones included.
    public var users: Int
    public var suspendedUsers: Int
    /// Messages stored, tombstones included.
    public var messages: Int
    public var openReports: Int
    /// The database's size in bytes (SQLite: its file and log; PostgreSQL: the database).
    public var storageBytes: Int
    /// Bytes of distinct media (the media store keeps each content once).
    public var mediaBytes: Int

    public init(users: Int, suspendedUsers: Int, messages: Int, openReports: Int, storageBytes: Int, mediaBytes: Int) {
        self.users = users
        self.suspendedUsers = suspendedUsers
        self.messages = messages
        self.openReports = openReports
        self.storageBytes = storageBytes
        self.mediaBytes = mediaBytes
    }
}
