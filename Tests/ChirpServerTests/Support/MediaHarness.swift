import AsyncHTTPClient
import ChirpModels
import Foundation
import NIOCore
import NIOHTTP1

/// Media calls for tests: raw-byte uploads (whole, in parts, or cut off midway) and downloads.
extension APIHarness {
    func putMedia(
        _ session: Session, _ clientId: String, _ bytes: Data, type: String = "application/octet-stream",
        range: String? = nil, query: String = "", headers extra: [(String, String)] = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + "/v1/media/\(clientId)\(query)")
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(session.token)")
        request.headers.add(name: "Content-Type", value: type)
        if let range { request.headers.add(name: "Content-Range", value: range) }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: bytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// Sends `bytes` as a part declared `declaredLength` long, and breaks the connection after
    /// the bytes (the server never sees the rest).
    func putMediaCut(
        _ session: Session, _ clientId: String, _ bytes: Data, first: Int64, declaredLength: Int64, total: Int64
    ) async {
        var request = HTTPClientRequest(url: baseURL + "/v1/media/\(clientId)")
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(session.token)")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Content-Range", value: "bytes \(first)-\(first + declaredLength - 1)/\(total)")
        let bytes = Data(bytes)
        let chunks = stride(from: 0, to: bytes.count, by: 64 * 1024).map {
            bytes[$0..<min($0 + 64 * 1024, bytes.count)]
        }
        let stream = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            Task {
                for chunk in chunks {
                    continuation.yield(ByteBuffer(bytes: chunk))
                    try? await Task.sleep(for: .milliseconds(1))
                }
                try? await Task.sleep(for: .milliseconds(300))
                continuation.finish(throwing: CancellationError())
            }
        }
        request.body = .stream(stream, length: .known(declaredLength))
        _ = try? await HTTPClient.shared.execute(request, timeout: .seconds(60))
    }

    /// The whole bytes of a media (up to 64 MiB).
    func mediaBytes(_ session: Session, _ id: String) async throws -> Data {
        var request = HTTPClientRequest(url: baseURL + "/v1/media/\(id)")
        request.headers.add(name: "Authorization", value: "Bearer \(session.token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        return Data(buffer: try await response.body.collect(upTo: 64 << 20))
    }

    func uploadStatus(_ session: Session, _ clientId: String) async throws -> MediaUploadStatus {
        try await send(.GET, "/v1/media/\(clientId)/upload", token: session.token).decode()
    }

    func getMedia(_ session: Session, _ id: String, headers: [(String, String)] = []) async throws -> Reply {
        try await send(.GET, "/v1/media/\(id)", token: session.token, headers: headers)
    }

    func sendMessage(
        _ from: Session, to username: String, _ text: String, mediaIds: [String], clientId: String = UUID().uuidString
    ) async throws -> Reply {
        try await send(
            .PUT, "/v1/conversations/\(username)/messages/\(clientId)", token: from.token,
            json: SendMessageRequest(text: text, mediaIds: mediaIds))
    }
}

/// Test bytes.
enum MediaBytes {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100))
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 50))

    /// `count` bytes of a repeatable pseudo-random pattern.
    static func random(_ count: Int, seed: UInt64 = 42) -> Data {
        var state = seed
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                words[index] = state
            }
            for index in (words.count * 8)..<count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                raw[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
        }
        return data
    }
}
