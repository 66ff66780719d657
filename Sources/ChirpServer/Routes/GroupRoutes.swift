import ChirpModels
import HTTPTypes
import Hummingbird

/// Group conversations: `/v1/groups/…`, mirroring the direct routes (`MessageRoutes`).
struct GroupRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let groups = services.groups
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.createGroup) { request, context in
            let body = try await JSONResponse.decode(CreateGroupRequest.self, from: request, limit: limit)
            let outcome = try await groups.create(
                context.viewer, clientGroupId: try context.pathParameter("clientGroupId"), body)
            return try JSONResponse.make(outcome.value, status: outcome.created ? .created : .ok)
        }
        authenticated.add(.group) { _, context in
            try JSONResponse.make(try await groups.group(context.viewer, id: try context.pathParameter("id")))
        }
        authenticated.add(.renameGroup) { request, context in
            let body = try await JSONResponse.decode(UpdateGroupRequest.self, from: request, limit: limit)
            return try JSONResponse.make(
                try await groups.rename(context.viewer, id: try context.pathParameter("id"), title: body.title))
        }
        let memberChanges: [(APIRoute, @Sendable (String, String) -> GroupChange)] = [
            (.addGroupMember, GroupChange.add), (.removeGroupMember, GroupChange.remove),
            (.addGroupAdmin, GroupChange.makeAdmin), (.removeGroupAdmin, GroupChange.dropAdmin),
        ]
        for (route, change) in memberChanges {
            authenticated.add(route) { _, context in
                let target = try GroupService.target(try context.pathParameter("username"), change)
                try await groups.change(context.viewer, id: try context.pathParameter("id"), target)
                return JSONResponse.noContent()
            }
        }
        let messageLimit = services.configuration.maxGroupMessageBodyBytes
        authenticated.add(.sendGroupMessage) { request, context in
            let body = try await JSONResponse.decodeSend(from: request, limit: messageLimit)
            let outcome = try await groups.send(
                context.viewer, id: try context.pathParameter("id"),
                clientMessageId: try context.pathParameter("clientMessageId"),
                text: body.text, replyTo: body.replyTo, mediaIds: body.mediaIds ?? [], envelope: body.envelope)
            return try JSONResponse.make(outcome.value, status: outcome.created ? .created : .ok)
        }
        authenticated.add(.groupMessages) { request, context in
            let query = QueryParameters(request: request)
            return try JSONResponse.make(
                try await groups.page(
                    context.viewer, id: try context.pathParameter("id"),
                    limit: try query.limit(), before: try query.id("before"), after: try query.id("after")))
        }
        authenticated.add(.markGroupRead) { request, context in
            let body = try await JSONResponse.decode(MarkReadRequest.self, from: request, limit: limit)
            try await groups.markRead(context.viewer, id: try context.pathParameter("id"), upTo: body.upTo)
            return JSONResponse.noContent()
        }
        authenticated.add(.groupMessageReads) { _, context in
            try JSONResponse.make(
                try await groups.readers(
                    context.viewer, id: try context.pathParameter("id"),
                    messageId: try context.pathParameter("messageId")))
        }
        let answers: [(APIRoute, GroupChange)] = [(.acceptGroupRequest, .accept), (.declineGroupRequest, .decline)]
        for (route, answer) in answers {
            authenticated.add(route) { _, context in
                try await groups.change(context.viewer, id: try context.pathParameter("id"), answer)
                return JSONResponse.noContent()
            }
        }
        let marks: [(APIRoute, ConversationMarkChange)] = [
            (.pinGroup, .pin), (.unpinGroup, .unpin), (.muteGroup, .mute), (.unmuteGroup, .unmute),
        ]
        for (route, change) in marks {
            authenticated.add(route) { _, context in
                try await groups.mark(context.viewer, id: try context.pathParameter("id"), change)
                return JSONResponse.noContent()
            }
        }
        authenticated.add(.groupTyping) { _, context in
            try await groups.typing(context.viewer, id: try context.pathParameter("id"))
            return JSONResponse.noContent()
        }
    }
}
