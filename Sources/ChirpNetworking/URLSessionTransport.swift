import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` on Foundation's `URLSession` (libcurl on Linux). Works everywhere Foundation
/// does; slower than `AsyncHTTPClientTransport` on Linux (see the README's measurement).
public struct URLSessionTransport: Transport {
    private let session: URLSession

    /// Uses `session` (the shared one by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func perform(_ request: TransportRequest) async throws(NetworkError) -> TransportResponse {
        var outgoing = URLRequest(url: request.url)
        outgoing.httpMethod = request.method.rawValue
        outgoing.httpBody = request.body
        outgoing.timeoutInterval =
            Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18
        for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: outgoing)
            guard let http = response as? HTTPURLResponse else { throw NetworkError.transport("not an HTTP response") }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return TransportResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as NetworkError {
            throw error
        } catch let error as URLError where error.code == .timedOut {
            throw .timeout
        } catch let error as URLError where error.code == .cancelled {
            throw .cancelled
        } catch is CancellationError {
            throw .cancelled
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw .transport(String(describing: error))
        }
    }
}
