import ChirpModels
import HTTPTypes
import Hummingbird
import NIOCore

/// Direct messages: idempotent sends, history paging, conversations, read markers, typing.
struct MessageRoutes {
    let services: ServerServices

    /// `sends`: the group whose viewers' sessions the send's write may confirm.
    func register(
        on authenticated: RouterGroup<AuthenticatedRequestContext>, sends: RouterGroup<AuthenticatedRequestContext>
    ) {
        let messages = services.messages
        let limit = services.configuration.maxBodyBytes
        sends.add(.sendMessage) { request, context in
            let recipient = try context.pathParameter("username")
            let clientId = try context.pathParameter("clientMessageId")
            let body = try await JSONResponse.decodeSend(from: request, limit: limit)
            let outcome = try await messages.send(
                context.viewer, to: recipient, clientMessageId: clientId, text: body.text, replyTo: body.replyTo,
                mediaIds: body.mediaIds ?? [], envelope: body.envelope)
            let status: HTTPResponse.Status = outcome.created ? .created : .ok
            if let json = outcome.json { return JSONResponse.raw(ByteBuffer(string: json), status: status) }
            return try JSONResponse.make(outcome.value, status: status)
        }
        authenticated.add(.messages) { request, context in
            let query = QueryParameters(request: request)
            return try JSONResponse.make(
                try await messages.page(
                    context.viewer, peer: try context.pathParameter("username"),
                    limit: try query.limit(), before: try query.id("before"), after: try query.id("after")))
        }
        authenticated.add(.conversations) { request, context in
            let query = QueryParameters(request: request)
            return try JSONResponse.make(
                try await services.conversations.list(
                    context.viewer, page: try query.page(), requests: try query.bool("requests") ?? false))
        }
        authenticated.add(.markRead) { request, context in
            let peer = try context.pathParameter("username")
            let body = try await JSONResponse.decode(MarkReadRequest.self, from: request, limit: limit)
            try await messages.markRead(context.viewer, peer: peer, upTo: body.upTo)
            return JSONResponse.noContent()
        }
        authenticated.add(.typing) { _, context in
            try await messages.typing(context.viewer, to: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
    }
}
