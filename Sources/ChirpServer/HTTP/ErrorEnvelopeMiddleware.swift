import ChirpModels
import HTTPTypes
import Hummingbird
import Logging

/// Turns every failure into API.md's error envelope: `APIError`s as they are, storage
/// failures through `APIError.init(_: StorageError)`, Hummingbird's
/// own errors by status, and anything else into a logged 500 (which is a bug by definition).
struct ErrorEnvelopeMiddleware<Context: RequestContext>: RouterMiddleware {
    let routeTable: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return JSONResponse.error(error)
        } catch let error as StorageError {
            if case .inconsistent(let what) = error {
                context.logger.error("storage inconsistency", metadata: ["what": "\(what)"])
            }
            return JSONResponse.error(APIError(error))
        } catch let error as HTTPError {
            return translate(error, request: request)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return JSONResponse.error(
                APIError(.internalServerError, APIErrorCode.internalError, "Something went wrong on the server."))
        }
    }

    private func translate(_ error: HTTPError, request: Request) -> Response {
        switch error.status {
        case .notFound:
            let allowed = routeTable.allowedMethods(for: request.uri.path)
            if !allowed.isEmpty {
                var response = JSONResponse.error(
                    APIError(
                        .methodNotAllowed, APIErrorCode.methodNotAllowed,
                        "\(request.method.rawValue) is not allowed here; use \(allowed.joined(separator: ", ")).")
                )
                response.headers[.allow] = allowed.joined(separator: ", ")
                return response
            }
            return JSONResponse.error(
                APIError(.notFound, APIErrorCode.notFound, "There is no such endpoint; see /openapi.yaml."))
        case .contentTooLarge:
            return JSONResponse.error(
                APIError(.contentTooLarge, APIErrorCode.bodyTooLarge, "The request body is larger than 64 KiB."))
        case .badRequest:
            return JSONResponse.error(
                APIError(.badRequest, APIErrorCode.malformedJSON, error.body ?? "The request is malformed."))
        default:
            let code = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return JSONResponse.error(APIError(error.status, code, error.body ?? error.status.reasonPhrase))
        }
    }
}
