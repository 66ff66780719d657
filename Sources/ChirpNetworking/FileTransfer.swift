import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Streams files to and from a server with progress, never holding a whole file in memory:
/// uploads read the file in chunks as the connection takes them, downloads write each chunk
/// as it arrives. Retries are the caller's (a transfer resumes from where it stopped).
public struct FileTransfer: Sendable {
    private let client: HTTPClient
    public let trust: ClientTrust
    /// Bytes read from or written to disk at a time.
    public var chunkSize = 256 * 1024

    public init(client: HTTPClient = AsyncHTTPClientTransport.defaultClient, trust: ClientTrust = .environment) {
        self.client = client
        self.trust = trust
    }

    /// Sends bytes `offset..<offset+length` of `file` as the body of `method url`; `progress`
    /// gets the bytes handed to the connection so far. Returns the reply (its body collected,
    /// at most 1 MiB).
    public func upload(
        _ file: URL, offset: Int64, length: Int64, method: HTTPMethod = .put, to url: URL, headers: [String: String],
        progress: @escaping @Sendable (Int64) -> Void = { _ in }
    ) async throws(NetworkError) -> TransportResponse {
        var request = try prepare(method, url, headers)
        let chunks = FileChunks(url: file, offset: offset, length: length, chunkSize: chunkSize, progress: progress)
        request.body = .stream(chunks, length: .known(length))
        return try await run(request) { response in
            TransportResponse(
                status: Int(response.status.code), headers: Self.headers(response),
                body: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
        }
    }

    /// `GET url` into `file` (appending when `append` and the reply is a 206, else replacing
    /// it); `progress` gets the bytes written and the reply's `Content-Length`. A reply other
    /// than 200/206 leaves the file alone and comes back with its body.
    public func download(
        _ url: URL, headers: [String: String], to file: URL, append: Bool,
        progress: @escaping @Sendable (Int64, Int64?) -> Void = { _, _ in }
    ) async throws(NetworkError) -> TransportResponse {
        let request = try prepare(.get, url, headers)
        let chunkSize = chunkSize
        return try await run(request) { response in
            let headers = Self.headers(response)
            guard response.status == .ok || response.status == .partialContent else {
                return TransportResponse(
                    status: Int(response.status.code), headers: headers,
                    body: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
            }
            // Only a 206 continues the file: a server that ignored `Range` sends it all again.
            if !append || response.status != .partialContent || !FileManager.default.fileExists(atPath: file.path) {
                FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            let total = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
            var written: Int64 = 0
            var pending = ByteBuffer()
            for try await var buffer in response.body {
                pending.writeBuffer(&buffer)
                if pending.readableBytes >= chunkSize {
                    try handle.write(contentsOf: pending.readableBytesView)
                    written += Int64(pending.readableBytes)
                    pending.clear()
                    progress(written, total)
                }
            }
            if pending.readableBytes > 0 {
                try handle.write(contentsOf: pending.readableBytesView)
                written += Int64(pending.readableBytes)
            }
            try handle.synchronize()
            progress(written, total)
            return TransportResponse(status: Int(response.status.code), headers: headers)
        }
    }

    private func prepare(_ method: HTTPMethod, _ url: URL, _ headers: [String: String]) throws(NetworkError)
        -> HTTPClientRequest
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = NIOHTTP1.HTTPMethod(rawValue: method.rawValue)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if url.scheme == "https" {
            if let problem = trust.problem { throw .transport(problem) }
            request.tlsConfiguration = trust.tlsConfiguration
        }
        return request
    }

    private func run(
        _ request: HTTPClientRequest, _ handle: (HTTPClientResponse) async throws -> TransportResponse
    ) async throws(NetworkError) -> TransportResponse {
        do {
            let response = try await client.execute(request, timeout: .hours(1))
            return try await handle(response)
        } catch let error as NetworkError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch let error as HTTPClientError where error == .cancelled {
            throw .cancelled
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw .timeout
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw .transport(String(describing: error))
        }
    }

    private static func headers(_ response: HTTPClientResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return headers
    }
}

/// A file's bytes `offset..<offset+length` in chunks, read as the consumer asks.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL
    let offset: Int64
    let length: Int64
    let chunkSize: Int
    let progress: @Sendable (Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var handle: FileHandle?
        let chunks: FileChunks
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            try Task.checkCancellation()
            if handle == nil {
                handle = try FileHandle(forReadingFrom: chunks.url)
                try handle?.seek(toOffset: UInt64(chunks.offset))
            }
            guard sent < chunks.length, let handle else {
                try? handle?.close()
                return nil
            }
            let count = Int(Swift.min(Int64(chunks.chunkSize), chunks.length - sent))
            guard let data = try handle.read(upToCount: count), !data.isEmpty else {
                throw CocoaError(.fileReadTooLarge)
            }
            sent += Int64(data.count)
            chunks.progress(sent)
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: nil, chunks: self) }
}
