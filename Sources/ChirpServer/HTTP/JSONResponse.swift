import ChirpModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Builds JSON responses and decodes JSON request bodies with the API's error mapping.
enum JSONResponse {
    /// A response with `value` encoded as JSON.
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        raw(ByteBuffer(bytes: try encoder().encode(value)), status: status)
    }

    /// The API's JSON formatting: sorted keys, slashes unescaped.
    static func encoder() -> JSONEncoder { APIJSON.encoder() }

    /// A response whose JSON body is already encoded.
    static func raw(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// An empty `204 No Content`.
    static func noContent() -> Response { Response(status: .noContent) }

    /// The error envelope for `error`.
    static func error(_ error: APIError) -> Response {
        var response = (try? make(error.body, status: error.status)) ?? Response(status: error.status)
        if let retryAfter = error.retryAfter {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }

    /// Reads the body (at most `limit` bytes) and decodes it; malformed JSON or a missing or
    /// mistyped field is a 400 naming the field.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try decode(type, from: try await body(of: request, limit: limit))
    }

    /// `decode` for a send's body, direct or group: `SendBodyScanner` reads the plain form
    /// nearly every client sends, and the decoder takes everything else, with its answers.
    static func decodeSend(from request: Request, limit: Int) async throws -> SendMessageRequest {
        let buffer = try await body(of: request, limit: limit)
        return try SendBodyScanner.scan(buffer) ?? decode(SendMessageRequest.self, from: buffer)
    }

    /// The body, at most `limit` bytes (413 past it).
    private static func body(of request: Request, limit: Int) async throws -> ByteBuffer {
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(
                .contentTooLarge, APIErrorCode.bodyTooLarge, "The request body is larger than \(limit / 1024) KiB.")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError(
                .badRequest, APIErrorCode.malformedJSON, "The field '\(key.stringValue)' is missing.",
                field: key.stringValue)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError(
                .badRequest, APIErrorCode.malformedJSON, "The field '\(field)' has the wrong type.",
                field: field.isEmpty ? nil : field)
        } catch {
            throw APIError(.badRequest, APIErrorCode.malformedJSON, "The body is not valid JSON of the expected shape.")
        }
    }
}
