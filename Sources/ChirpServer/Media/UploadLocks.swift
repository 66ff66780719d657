/// One request at a time per upload on this instance: two parts of the same upload arriving
/// together would otherwise append to its file at once. (Instances sharing a media directory
/// do not share these locks; the offset check still refuses a part that no longer fits.)
actor UploadLocks {
    private var held: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func withLock<T: Sendable>(_ key: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    /// Waits (up to `limit`) until no request of this upload is being handled here: a part cut
    /// a moment ago may still be writing what arrived before the cut, and where to resume is
    /// known only after it.
    func settle(_ key: String, limit: Duration = .seconds(2)) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while held.contains(key), clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    private func acquire(_ key: String) async {
        if !held.contains(key) {
            held.insert(key)
            return
        }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        if var queue = waiters[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[key] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            held.remove(key)
        }
    }
}
