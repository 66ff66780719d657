import ChirpModels
import HTTPTypes
import Hummingbird
import NIOCore

/// Direct messages: idempotent sends, history paging, conversations, read markers, typing.
struct MessageRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>) {
        router.add(.sendMessage, services: services, send)
        router.add(.messages, services: services) { request, context in
            let query = QueryParameters(request: request)
            return try JSONResponse.make(try await services.storage.messages(
                viewer: try context.requireViewer(), peer: try context.pathParameter("username"),
                limit: try query.limit(), before: try query.id("before"), after: try query.id("after")))
        }
        router.add(.conversations, services: services) { request, context in
            try JSONResponse.make(try await services.storage.conversations(
                viewer: try context.requireViewer(), page: try QueryParameters(request: request).page()))
        }
        router.add(.markRead, services: services, markRead)
        router.add(.typing, services: services) { _, context in
            let viewer = try context.requireViewer()
            let peer = try await services.storage.typingTarget(viewer: viewer, peer: try context.pathParameter("username"))
            await services.publishLive(to: peer, type: EventType.typing, payload: TypingNotice(from: viewer.username))
            return JSONResponse.noContent()
        }
    }

    @Sendable func send(_ request: Request, _ context: ChirpRequestContext) async throws -> Response {
        let viewer = try context.requireViewer()
        let recipient = try context.pathParameter("username")
        let clientId = try context.pathParameter("clientMessageId")
        guard Validation.isValidClientId(clientId) else {
            throw APIError.badParameter("clientMessageId", "A clientMessageId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        let body = try await JSONResponse.decode(TextBody.self, from: request, limit: services.configuration.maxBodyBytes)
        let text: String
        do { text = try Validation.messageText(body.text) } catch { throw APIError.validation(error) }
        let limited = services.configuration.rateLimitsEnabled
        let limiterKey = String(viewer.id)
        if limited, let wait = services.messageLimiter.acquire(limiterKey) {
            // A retry of a message already stored is answered even when the limit is reached.
            if let existing = try await services.storage.message(sender: viewer.id, clientMessageId: clientId),
               existing.text == text, Validation.usernameKey(existing.recipient) == Validation.usernameKey(recipient) {
                return try JSONResponse.make(existing, status: .ok)
            }
            throw APIError(
                .tooManyRequests, APIErrorCode.rateLimited,
                "You have sent too many messages; try again in \(wait) seconds.", retryAfter: wait)
        }
        let outcome: WriteOutcome<Message>
        do {
            outcome = try await services.storage.sendMessage(NewMessage(
                sender: viewer, recipient: recipient, clientMessageId: clientId, text: text, createdAt: services.now()))
        } catch {
            if limited { services.messageLimiter.release(limiterKey) }
            throw error
        }
        if outcome.created {
            services.hub.publish(outcome.appended)
            services.metrics.messagesSent.increment()
        } else if limited {
            services.messageLimiter.release(limiterKey)
        }
        let status: HTTPResponse.Status = outcome.created ? .created : .ok
        if let json = outcome.json { return JSONResponse.raw(ByteBuffer(string: json), status: status) }
        return try JSONResponse.make(outcome.value, status: status)
    }

    @Sendable func markRead(_ request: Request, _ context: ChirpRequestContext) async throws -> Response {
        let viewer = try context.requireViewer()
        let peer = try context.pathParameter("username")
        let body = try await JSONResponse.decode(MarkReadRequest.self, from: request, limit: services.configuration.maxBodyBytes)
        guard let upTo = Validation.parseId(body.upTo) else {
            throw APIError(.badRequest, APIErrorCode.invalidParameter, "'upTo' must be a message id.", field: "upTo")
        }
        let outcome = try await services.storage.markRead(viewer: viewer, peer: peer, upTo: upTo, at: services.now())
        services.hub.publish(outcome.appended)
        return JSONResponse.noContent()
    }
}
