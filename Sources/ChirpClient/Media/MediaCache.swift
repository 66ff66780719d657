import ChirpModels
import ChirpNetworking
import Crypto
import Foundation

/// Downloaded media on this device (`media-cache/` in the user's directory), named by sha256,
/// under a size cap: storing past it evicts the least recently used files (a read touches a
/// file's modification time). Downloads stream to a part file, resume after a cut (`Range`),
/// and are checked against the sha256 before they count.
public struct MediaCache: Sendable {
    public let directory: URL
    /// Bytes the cache may hold.
    public var capacity: Int64

    public init(directory: URL, capacity: Int64 = 256 * 1024 * 1024) {
        self.directory = directory
        self.capacity = capacity
    }

    /// The cached file of this media, touched as just used; nil when not cached.
    public func cached(_ media: Media) -> URL? {
        let url = file(for: media)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return url
    }

    func file(for media: Media) -> URL { directory.appendingPathComponent(media.sha256) }

    /// Downloads `media` into the cache (or returns the cached file), reporting progress.
    func fetch(
        _ media: Media, api: ChirpAPIClient, transfer: FileTransfer, feed: MediaTransferFeed?
    ) async throws -> URL {
        if let url = cached(media) { return url }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let part = directory.appendingPathComponent(media.sha256 + ".part")
        let subject = MediaTransfer.Subject.download(mediaId: media.id)
        let url = api.client.server.baseURL.appendingPathComponent(APIRoute.downloadMedia.path(["id": media.id]))
        var attempts = 0
        while true {
            let have =
                (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? NSNumber)?.int64Value ?? 0
            var headers: [String: String] = [:]
            if let token = api.token { headers["Authorization"] = "Bearer \(token)" }
            if have > 0, have < media.size { headers["Range"] = "bytes=\(have)-" }
            let resumed = headers["Range"] != nil
            do {
                let response = try await transfer.download(url, headers: headers, to: part, append: resumed) {
                    done, _ in
                    feed?.publish(
                        MediaTransfer(
                            subject: subject, bytesDone: (resumed ? have : 0) + done, total: media.size, state: .running
                        ))
                }
                guard response.status == 200 || response.status == 206 else { throw MediaUploader.error(response) }
                break
            } catch let error as NetworkError where error.isTransient && attempts < 3 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(200 * attempts))
            } catch {
                feed?.publish(
                    MediaTransfer(
                        subject: subject, bytesDone: have, total: media.size, state: .failed(String(describing: error)))
                )
                throw error
            }
        }
        guard try Self.sha256(of: part) == media.sha256 else {
            try? FileManager.default.removeItem(at: part)
            feed?.publish(
                MediaTransfer(
                    subject: subject, bytesDone: 0, total: media.size, state: .failed("the bytes did not match")))
            throw NetworkError.transport("the downloaded bytes of media \(media.id) do not match its sha256; try again")
        }
        let final = file(for: media)
        _ = try? FileManager.default.removeItem(at: final)
        try FileManager.default.moveItem(at: part, to: final)
        feed?.publish(MediaTransfer(subject: subject, bytesDone: media.size, total: media.size, state: .finished))
        evict(keeping: final)
        return final
    }

    /// Removes the least recently used files until the cache fits its capacity (`keeping`
    /// stays, even alone over it).
    public func evict(keeping: URL? = nil) {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        else { return }
        var entries = files.filter { $0.pathExtension != "part" }.compactMap { url -> (URL, Date, Int64)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
            return (url, values.contentModificationDate ?? .distantPast, Int64(values.fileSize ?? 0))
        }
        var total = entries.reduce(0) { $0 + $1.2 }
        entries.sort { $0.1 < $1.1 }
        for (url, _, size) in entries where total > capacity {
            if url.standardizedFileURL == keeping?.standardizedFileURL { continue }
            try? FileManager.default.removeItem(at: url)
            total -= size
        }
    }

    static func sha256(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty { hasher.update(data: data) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
