/// When a `RemoteLogReporter` moves entries from memory to disk, when it uploads, and how much
/// disk it may use.
public protocol RemoteLogPersistenceStrategy: Sendable {
    /// Whether the in-memory buffer should be appended to disk now.
    func shouldMoveToDisk(memoryCount: Int, memoryBytes: Int) -> Bool
    /// Whether what is on disk should be uploaded now (the waterline).
    func shouldUpload(pendingCount: Int, pendingBytes: Int) -> Bool
    /// Whether the disk holds more than allowed (the oldest entries are then dropped).
    func exceedsDiskCap(pendingCount: Int, pendingBytes: Int) -> Bool
}

/// Thresholds by number of entries (the default strategy).
public struct CountPersistenceStrategy: RemoteLogPersistenceStrategy {
    /// Entries kept in memory before they go to disk.
    public var maxMemoryCount: Int
    /// Entries on disk that trigger an upload.
    public var waterline: Int
    /// Entries kept on disk at most.
    public var maxDiskCount: Int

    /// - Parameters:
    ///   - maxMemoryCount: entries kept in memory before they go to disk.
    ///   - waterline: entries on disk that trigger an upload.
    ///   - maxDiskCount: entries kept on disk at most.
    public init(maxMemoryCount: Int = 20, waterline: Int = 100, maxDiskCount: Int = 10_000) {
        self.maxMemoryCount = max(1, maxMemoryCount)
        self.waterline = max(1, waterline)
        self.maxDiskCount = max(1, maxDiskCount)
    }

    /// See `RemoteLogPersistenceStrategy`.
    public func shouldMoveToDisk(memoryCount: Int, memoryBytes: Int) -> Bool { memoryCount >= maxMemoryCount }
    /// See `RemoteLogPersistenceStrategy`.
    public func shouldUpload(pendingCount: Int, pendingBytes: Int) -> Bool { pendingCount >= waterline }
    /// See `RemoteLogPersistenceStrategy`.
    public func exceedsDiskCap(pendingCount: Int, pendingBytes: Int) -> Bool { pendingCount > maxDiskCount }
}

/// Thresholds by size in bytes.
public struct BytePersistenceStrategy: RemoteLogPersistenceStrategy {
    /// Bytes kept in memory before they go to disk.
    public var maxMemoryBytes: Int
    /// Bytes on disk that trigger an upload.
    public var waterlineBytes: Int
    /// Bytes kept on disk at most.
    public var maxDiskBytes: Int

    /// - Parameters:
    ///   - maxMemoryBytes: bytes kept in memory before they go to disk.
    ///   - waterlineBytes: bytes on disk that trigger an upload.
    ///   - maxDiskBytes: bytes kept on disk at most.
    public init(maxMemoryBytes: Int = 16 * 1024, waterlineBytes: Int = 48 * 1024, maxDiskBytes: Int = 4 * 1024 * 1024) {
        self.maxMemoryBytes = max(1, maxMemoryBytes)
        self.waterlineBytes = max(1, waterlineBytes)
        self.maxDiskBytes = max(1, maxDiskBytes)
    }

    /// See `RemoteLogPersistenceStrategy`.
    public func shouldMoveToDisk(memoryCount: Int, memoryBytes: Int) -> Bool { memoryBytes >= maxMemoryBytes }
    /// See `RemoteLogPersistenceStrategy`.
    public func shouldUpload(pendingCount: Int, pendingBytes: Int) -> Bool { pendingBytes >= waterlineBytes }
    /// See `RemoteLogPersistenceStrategy`.
    public func exceedsDiskCap(pendingCount: Int, pendingBytes: Int) -> Bool { pendingBytes > maxDiskBytes }
}
