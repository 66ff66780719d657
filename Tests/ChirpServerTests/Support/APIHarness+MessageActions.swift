import ChirpModels
import Foundation
import Testing

/// Calls of message actions and search (API.md part 2) for tests.
extension APIHarness {
    func sendMessage(
        _ from: Session, to username: String, _ text: String, replyTo: String?, clientId: String = UUID().uuidString
    ) async throws -> Reply {
        try await send(
            .PUT, "/v1/conversations/\(username)/messages/\(clientId)", token: from.token,
            json: SendMessageRequest(text: text, replyTo: replyTo))
    }

    /// Sends and returns the stored message (the send must succeed).
    func sent(_ from: Session, to username: String, _ text: String) async throws -> Message {
        let reply = try await sendMessage(from, to: username, text)
        try #require(reply.status == 201, "send: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    /// `emoji` goes into the path percent-encoded, as clients send it.
    func react(_ viewer: Session, with peer: String, _ messageId: String, _ emoji: String, remove: Bool = false)
        async throws -> Reply
    {
        let encoded = emoji.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? emoji
        return try await send(
            remove ? .DELETE : .PUT, "/v1/conversations/\(peer)/messages/\(messageId)/reactions/\(encoded)",
            token: viewer.token)
    }

    func edit(_ viewer: Session, with peer: String, _ messageId: String, _ text: String) async throws -> Reply {
        try await send(
            .PATCH, "/v1/conversations/\(peer)/messages/\(messageId)", token: viewer.token, json: TextBody(text: text))
    }

    func unsend(_ viewer: Session, with peer: String, _ messageId: String) async throws -> Reply {
        try await send(.DELETE, "/v1/conversations/\(peer)/messages/\(messageId)", token: viewer.token)
    }

    func search(
        _ viewer: Session, _ q: String?, peer: String? = nil, group: String? = nil, limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Reply {
        var items: [URLQueryItem] = []
        if let q { items.append(URLQueryItem(name: "q", value: q)) }
        if let peer { items.append(URLQueryItem(name: "peer", value: peer)) }
        if let group { items.append(URLQueryItem(name: "group", value: group)) }
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let cursor { items.append(URLQueryItem(name: "cursor", value: cursor)) }
        var components = URLComponents()
        components.queryItems = items
        // `+` would read as a space on the server: encode it too.
        let query = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
        return try await send(.GET, "/v1/search/messages?\(query)", token: viewer.token)
    }

    /// The texts a search finds (it must succeed), newest first.
    func found(_ viewer: Session, _ q: String, peer: String? = nil, group: String? = nil) async throws -> [String] {
        let reply = try await search(viewer, q, peer: peer, group: group)
        try #require(reply.status == 200, "search: \(reply.status) \(reply.text)")
        return try reply.decode(Page<Message>.self).items.map(\.text)
    }

    /// The one message with this id in the viewer's conversation with `peer`.
    func message(_ viewer: Session, with peer: String, id: String) async throws -> Message? {
        try await messages(viewer, with: peer, query: "?limit=100").items.first { $0.id == id }
    }
}
