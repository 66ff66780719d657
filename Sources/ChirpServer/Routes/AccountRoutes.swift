import ChirpModels
import Hummingbird

/// Accounts and sessions: register, log in, log out, who am I, look someone up.
struct AccountRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>, authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let accounts = services.accounts
        let exports = services.exports
        let limit = services.configuration.maxBodyBytes
        router.add(.createAccount) { request, context in
            let body = try await JSONResponse.decode(RegisterRequest.self, from: request, limit: limit)
            let created = try await accounts.register(
                body, userAgent: request.headers[.userAgent], clientAddress: context.clientAddress)
            return try JSONResponse.make(created, status: .created)
        }
        router.add(.login) { request, context in
            let body = try await JSONResponse.decode(LoginRequest.self, from: request, limit: limit)
            let session = try await accounts.login(
                body, userAgent: request.headers[.userAgent], clientAddress: context.clientAddress)
            return try JSONResponse.make(session, status: .created)
        }
        authenticated.add(.logout) { _, context in
            try await accounts.logout(context.viewer)
            return JSONResponse.noContent()
        }
        authenticated.add(.me) { _, context in
            try JSONResponse.make(try await accounts.me(context.viewer))
        }
        authenticated.add(.user) { _, context in
            try JSONResponse.make(
                try await accounts.user(named: try context.pathParameter("username"), viewer: context.viewer))
        }
        // Account security (API.md part 2).
        authenticated.add(.sessions) { _, context in
            try JSONResponse.make(try await accounts.sessionList(context.viewer))
        }
        authenticated.add(.endSession) { _, context in
            try await accounts.endSession(context.viewer, id: try context.pathParameter("id"))
            return JSONResponse.noContent()
        }
        authenticated.add(.changePassword) { request, context in
            let body = try await JSONResponse.decode(ChangePasswordRequest.self, from: request, limit: limit)
            try await accounts.changePassword(context.viewer, body, clientAddress: context.clientAddress)
            return JSONResponse.noContent()
        }
        authenticated.add(.deleteAccount) { request, context in
            let body = try await JSONResponse.decode(DeleteAccountRequest.self, from: request, limit: limit)
            try await accounts.deleteAccount(context.viewer, body, clientAddress: context.clientAddress)
            await exports.discard(userId: context.viewer.id)
            return JSONResponse.noContent()
        }
    }
}
