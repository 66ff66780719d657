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
    public var maxMemoryCount: Int
    public var waterline: Int
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

    public func shouldMoveToDisk(memoryCount: Int, memoryBytes: Int) -> Bool { memoryCount >= maxMemoryCount }
    public func shouldUpload(pendingCount: Int, pendingBytes: Int) -> Bool { pendingCount >= waterline }
    public func exceedsDiskCap(pendingCount: Int, pendingBytes: Int) -> Bool { pendingCount > maxDiskCount }
}

/// Thresholds by size in bytes.
public struct BytePersistenceStrategy: RemoteLogPersistenceStrategy {
    public var maxMemoryBytes: Int
    public var waterlineBytes: Int
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

    public func shouldMoveToDisk(memoryCount: Int, memoryBytes: Int) -> Bool { memoryBytes >= maxMemoryBytes }
    public func shouldUpload(pendingCount: Int, pendingBytes: Int) -> Bool { pendingBytes >= waterlineBytes }
    public func exceedsDiskCap(pendingCount: Int, pendingBytes: Int) -> Bool { pendingBytes > maxDiskBytes }
}
