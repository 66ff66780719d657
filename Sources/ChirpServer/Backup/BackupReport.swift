import Foundation

/// What `chirp admin backup` did: where, how long, how big, and how much media it copied.
public struct BackupReport: Sendable, CustomStringConvertible {
    public var destination: String
    public var seconds: Double
    public var databaseBytes: Int64
    public var users: Int
    public var messages: Int
    /// Distinct media blobs the backup's database names.
    public var blobs: Int
    /// Blobs this backup copied (the others were in the directory already).
    public var blobsCopied: Int
    public var bytesCopied: Int64
    /// Media rows left out because the media sweep removed them while the backup ran.
    public var sweptMedia: Int

    public var description: String {
        var line =
            "backup written to \(destination) in \(String(format: "%.2f", seconds)) s: database \(Self.size(databaseBytes))"
        line +=
            " (\(users) users, \(messages) messages), \(blobs) media blobs: \(blobsCopied) copied (\(Self.size(bytesCopied)))"
        line += ", \(blobs - blobsCopied) already there"
        if sweptMedia > 0 { line += ", \(sweptMedia) swept while copying left out" }
        return line
    }

    static func size(_ bytes: Int64) -> String {
        bytes < 1024 * 1024 ? "\(bytes / 1024) KiB" : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}

/// What `chirp admin restore` did.
public struct RestoreReport: Sendable, CustomStringConvertible {
    public var source: String
    public var dataDirectory: String
    public var users: Int
    public var messages: Int
    public var blobs: Int
    public var blobsCopied: Int
    /// Where the database that was in the data directory was moved, if there was one.
    public var keptAt: String?

    public var description: String {
        var line =
            "restored \(source) into \(dataDirectory): \(users) users, \(messages) messages, \(blobs) media blobs"
        line += " (\(blobsCopied) copied, the rest already there)"
        if let keptAt { line += "; the database that was there is kept in \(keptAt)" }
        return line + "; start the server"
    }
}
