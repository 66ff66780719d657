import Foundation

/// Decides whether a reply is a success, and turns failures into typed errors.
public protocol ResponseValidator: Sendable {
    /// Returns normally for a success; throws a `NetworkError` otherwise.
    func validate(_ response: TransportResponse) throws(NetworkError)
}

/// Accepts 2xx (and 304, handled by the cache); maps an error body of the form
/// `{"error": {"code": "…", "message": "…", "field": "…"?}}` to `NetworkError.server`, and any
/// other failure to `NetworkError.http`.
public struct ErrorEnvelopeValidator: ResponseValidator {
    /// Creates the validator.
    public init() {}

    private struct Envelope: Decodable {
        struct Detail: Decodable {
            var code: String
            var message: String
            var field: String?
        }
        var error: Detail
    }

    public func validate(_ response: TransportResponse) throws(NetworkError) {
        guard !(200...299).contains(response.status), response.status != 304 else { return }
        if let envelope = try? JSONDecoder().decode(Envelope.self, from: response.body) {
            throw .server(
                status: response.status, code: envelope.error.code, message: envelope.error.message,
                field: envelope.error.field)
        }
        throw .http(status: response.status, body: String(decoding: response.body.prefix(1024), as: UTF8.self))
    }
}
