import Foundation
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One event-stream WebSocket per account, recording for each message addressed to it how long
/// it took from the sender's stamp (microseconds since the run's origin, at the start of the
/// message text, or of another field: an encrypted message's text is sealed) to the frame's
/// arrival here.
final class DeliveryListeners: Sendable {
    private let channels: [any Channel]

    private init(channels: [any Channel]) { self.channels = channels }

    /// Opens a stream for each of `accounts`; `stampAfter` is what precedes the stamp in a
    /// frame (`"text":"t`, or `"clientMessageId":"t` when the stamp is in the message's id).
    static func open(
        baseURL: URL, accounts: [BenchAccount], origin: LoadClock, recorder: LatencyRecorder,
        stampAfter: [UInt8] = textStamp
    ) async throws -> DeliveryListeners {
        let host = baseURL.host ?? "127.0.0.1"
        let port = baseURL.port ?? 80
        let channels = try await withThrowingTaskGroup(of: (any Channel).self) { group in
            for account in accounts {
                let marker = Array(#""recipient":"\#(account.name)""#.utf8)
                group.addTask {
                    try await StreamSocket.open(host: host, port: port, token: account.token) { frame in
                        let stamp = frame.withUnsafeReadableBytes { bytes in
                            Self.offset(of: marker, in: bytes) == nil ? nil : Self.stamp(in: bytes, after: stampAfter)
                        }
                        if let stamp { recorder.record(microseconds: origin.microseconds() - stamp) }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return DeliveryListeners(channels: channels)
    }

    /// What precedes the stamp in a load message's frame: its text starts with it.
    static let textStamp = Array(#""text":"t"#.utf8)

    /// The number after `prefix` (`"text":"t` unless told) in an event frame.
    static func stamp(in frame: UnsafeRawBufferPointer, after prefix: [UInt8] = textStamp) -> Int64? {
        guard let start = offset(of: prefix, in: frame) else { return nil }
        var value: Int64 = 0
        var digits = 0
        for byte in frame[(start + prefix.count)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Where `needle` first occurs in `bytes` (memchr and memcmp: the generic collection
    /// search cost more than the rest of the load generator together).
    static func offset(of needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first, needle.count <= bytes.count else { return nil }
        return needle.withUnsafeBytes { pattern -> Int? in
            var start = 0
            let last = bytes.count - needle.count
            while start <= last {
                guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return nil }
                let offset = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + offset, pattern.baseAddress!, needle.count) == 0 { return offset }
                start = offset + 1
            }
            return nil
        }
    }

    func close() { for channel in channels { channel.close(promise: nil) } }
}

/// Microseconds on the monotonic clock since the moment a run began; the stamps senders put in
/// message texts and the listeners' arrival times are both read from it. CLOCK_MONOTONIC is one
/// clock for every process on the machine, so another process given `start` reads the same.
struct LoadClock: Sendable {
    /// The run's start, in nanoseconds of CLOCK_MONOTONIC.
    let start: UInt64

    init(start: UInt64 = NIODeadline.now().uptimeNanoseconds) { self.start = start }

    func microseconds() -> Int64 { Int64((NIODeadline.now().uptimeNanoseconds &- start) / 1000) }
}

/// Holds many idle WebSockets on one server and reports what they cost it.
struct IdleSocketsRun {
    let baseURL: URL
    let count: Int
    let server: ChildServer?

    struct Report: Encodable {
        var connections: Int
        var opened: Int
        var serverRSSBeforeBytes: Int?
        var serverRSSAfterBytes: Int?
        var bytesPerConnection: Double?

        var lines: [String] {
            var lines = ["idle WebSockets: \(opened) of \(connections) held"]
            if let before = serverRSSBeforeBytes, let after = serverRSSAfterBytes, let each = bytesPerConnection {
                lines.append(
                    String(
                        format: "  server RSS %.1f MiB → %.1f MiB · %.1f KB per connection", Double(before) / 1_048_576,
                        Double(after) / 1_048_576, each / 1024))
            } else {
                lines.append("  server RSS: n/a (external server)")
            }
            return lines
        }
    }

    func run() async throws -> Report {
        let client = LoadClient(baseURL: baseURL, connections: 1)
        defer { Task { await client.shutdown() } }
        let token = try await client.register("idle\(UInt32.random(in: 0...UInt32.max) % 100_000)").token
        try await Task.sleep(for: .milliseconds(500))
        let before = server?.residentBytes
        let host = baseURL.host ?? "127.0.0.1"
        let port = baseURL.port ?? 80
        var channels: [any Channel] = []
        // 200 handshakes at a time: the listen backlog is not the thing measured.
        for batch in stride(from: 0, to: count, by: 200) {
            channels += await withTaskGroup(of: (any Channel)?.self) { group in
                for _ in batch..<min(batch + 200, count) {
                    group.addTask { try? await StreamSocket.open(host: host, port: port, token: token) { _ in } }
                }
                return await group.reduce(into: []) { if let channel = $1 { $0.append(channel) } }
            }
        }
        try await Task.sleep(for: .seconds(2))
        let after = server?.residentBytes
        let held = channels.filter(\.isActive).count
        for channel in channels { channel.close(promise: nil) }
        var perConnection: Double?
        if let before, let after, held > 0 { perConnection = Double(after - before) / Double(held) }
        return Report(
            connections: count, opened: held, serverRSSBeforeBytes: before, serverRSSAfterBytes: after,
            bytesPerConnection: perConnection)
    }
}
