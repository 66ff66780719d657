import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The default real `Transport`: AsyncHTTPClient on SwiftNIO, with pooled keep-alive
/// connections. Chosen over URLSession on Linux by measurement (see the README).
public struct AsyncHTTPClientTransport: Transport {
    private let client: HTTPClient
    /// Largest reply body accepted.
    public var maxResponseBytes: Int
    /// The certificates `https://` servers are checked against.
    public let trust: ClientTrust

    /// A process-wide client tuned for an app talking to its API: a refused or failed
    /// connection fails the attempt at once (AsyncHTTPClient's default keeps retrying the
    /// connection until the request's deadline, which would hide "server down" for the whole
    /// timeout); `APIClient` decides about retries instead.
    public static let defaultClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(5)
        // Below the server's idle timeout (60 s): the client lets a connection go before the
        // server would close it under a request.
        configuration.connectionPool.idleTimeout = .seconds(30)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Uses `defaultClient` unless given another, and trusts what `CHIRP_CA_CERT` names unless told otherwise.
    public init(
        client: HTTPClient = AsyncHTTPClientTransport.defaultClient, maxResponseBytes: Int = 16 * 1024 * 1024,
        trust: ClientTrust = .environment
    ) {
        self.client = client
        self.maxResponseBytes = maxResponseBytes
        self.trust = trust
    }

    public func perform(_ request: TransportRequest) async throws(NetworkError) -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        if request.url.scheme == "https" {
            if let problem = trust.problem { throw .transport(problem) }
            outgoing.tlsConfiguration = trust.tlsConfiguration
        }
        let timeout = TimeAmount.nanoseconds(
            Int64(request.timeout.components.seconds) * 1_000_000_000 + request.timeout.components.attoseconds
                / 1_000_000_000)
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: maxResponseBytes)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name] = header.value }
            return TransportResponse(status: Int(response.status.code), headers: headers, body: Data(buffer: body))
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
        {
            throw .timeout
        } catch is CancellationError {
            throw .cancelled
        } catch let error as HTTPClientError where error == .cancelled {
            throw .cancelled
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw .transport(String(describing: error))
        }
    }
}
