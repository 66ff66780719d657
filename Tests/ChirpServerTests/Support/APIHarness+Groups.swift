import ChirpModels
import Foundation
import NIOHTTP1
import Testing

/// Group calls (API.md part 3) for the group suites.
extension APIHarness {
    /// Registers `creator` and `members`; each member follows the creator, so the creator may
    /// add them.
    func people(_ creator: String, _ members: [String]) async throws -> (creator: Session, members: [Session]) {
        let session = try await register(creator)
        var others: [Session] = []
        for name in members {
            let member = try await register(name)
            try await follow(member, creator)
            others.append(member)
        }
        return (session, others)
    }

    func createGroup(_ creator: Session, _ title: String, _ members: [String], clientId: String = UUID().uuidString)
        async throws -> Reply
    {
        try await send(
            .PUT, "/v1/groups/\(clientId)", token: creator.token,
            json: CreateGroupRequest(title: title, members: members))
    }

    /// Creates a group and requires it created.
    func group(_ creator: Session, _ members: [String], title: String = "Team") async throws -> Group {
        let reply = try await createGroup(creator, title, members)
        try #require(reply.status == 201, "create group: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    func getGroup(_ viewer: Session, _ id: String) async throws -> Reply {
        try await send(.GET, "/v1/groups/\(id)", token: viewer.token)
    }

    func groupMember(
        _ viewer: Session, _ method: HTTPMethod, _ id: String, _ username: String, _ what: String = "members"
    ) async throws -> Reply {
        try await send(method, "/v1/groups/\(id)/\(what)/\(username)", token: viewer.token)
    }

    func sendToGroup(
        _ from: Session, _ id: String, _ text: String, clientId: String = UUID().uuidString, replyTo: String? = nil
    ) async throws -> Reply {
        try await send(
            .PUT, "/v1/groups/\(id)/messages/\(clientId)", token: from.token,
            json: SendMessageRequest(text: text, replyTo: replyTo))
    }

    /// Sends to the group and requires it stored.
    func sentToGroup(_ from: Session, _ id: String, _ text: String) async throws -> Message {
        let reply = try await sendToGroup(from, id, text)
        try #require(reply.status == 201, "group send: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    func groupMessages(_ viewer: Session, _ id: String, query: String = "") async throws -> Reply {
        try await send(.GET, "/v1/groups/\(id)/messages\(query)", token: viewer.token)
    }

    /// The texts of the group's newest page for the viewer, oldest first.
    func groupTexts(_ viewer: Session, _ id: String) async throws -> [String] {
        let reply = try await groupMessages(viewer, id)
        try #require(reply.status == 200, "group messages: \(reply.status) \(reply.text)")
        return try reply.decode(Page<Message>.self).items.map(\.text)
    }

    func readGroup(_ viewer: Session, _ id: String, upTo: String) async throws -> Reply {
        try await send(.POST, "/v1/groups/\(id)/read", token: viewer.token, json: MarkReadRequest(upTo: upTo))
    }
}
