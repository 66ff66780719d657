import ChirpModels
import ChirpNetworking
import Foundation

/// The group calls the demo makes (API.md part 3), until the client kit speaks groups: the
/// seeder creates the demo group, and bob the bot answers in it.
enum DemoGroupEndpoints {
    /// `PUT /v1/groups/{clientGroupId}` (idempotent by client id).
    struct Create: Endpoint {
        typealias Response = Group
        var clientGroupId = UUID().uuidString
        var request: CreateGroupRequest
        var method: HTTPMethod { .put }
        var path: String { APIRoute.createGroup.path(["clientGroupId": clientGroupId]) }
        var body: CreateGroupRequest? { request }
    }

    /// `PUT /v1/groups/{id}/messages/{clientMessageId}` (idempotent by client id).
    struct Send: Endpoint {
        typealias Response = Message
        var group: String
        var clientMessageId = UUID().uuidString
        var text: String
        var method: HTTPMethod { .put }
        var path: String { APIRoute.sendGroupMessage.path(["id": group, "clientMessageId": clientMessageId]) }
        var body: SendMessageRequest? { SendMessageRequest(text: text) }
    }

    /// `POST /v1/groups/{id}/typing`: live only, never retried.
    struct Typing: Endpoint {
        typealias Response = EmptyResponse
        var group: String
        var method: HTTPMethod { .post }
        var path: String { APIRoute.groupTyping.path(["id": group]) }
        var retryPolicy: RetryPolicy { .none }
    }

    /// `POST /v1/groups/{id}/read`.
    struct Read: Endpoint {
        typealias Response = EmptyResponse
        var group: String
        var upTo: String
        var method: HTTPMethod { .post }
        var path: String { APIRoute.markGroupRead.path(["id": group]) }
        var body: MarkReadRequest? { MarkReadRequest(upTo: upTo) }
        var isIdempotent: Bool { true }
    }
}
