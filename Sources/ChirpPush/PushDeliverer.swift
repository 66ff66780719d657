import AsyncHTTPClient
import ChirpNetworking
import Foundation
import Logging
import NIOCore

/// Sends one `PushMessage` to its push service and says what became of it: one POST, bounded
/// by `timeout`, never retried here (the caller's queue retries with `PushRetryPolicy`).
public struct PushDeliverer: Sendable {
    /// The longest one push request may take by default.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The HTTP client; its owner shuts it down.
    public let httpClient: HTTPClient
    /// Signs the VAPID header.
    public let signer: VAPIDSigner
    /// The longest one request may take, connecting included.
    public let timeout: Duration
    /// Where outcomes other than delivery are logged (the endpoint's origin only: the full
    /// endpoint is the subscription's secret).
    public let logger: Logger

    /// A deliverer through `httpClient`, signing with `signer`.
    public init(
        httpClient: HTTPClient = .shared, signer: VAPIDSigner, timeout: Duration = defaultTimeout,
        logger: Logger = Logger(label: "chirp.push")
    ) {
        self.httpClient = httpClient
        self.signer = signer
        self.timeout = timeout
        self.logger = logger
    }

    /// Sends `message` and classifies the answer (see `PushOutcome`).
    public func deliver(_ message: PushMessage) async -> PushOutcome {
        let origin = (try? PushEndpoint.origin(of: message.endpoint)) ?? "?"
        let outcome: PushOutcome
        do {
            let request = try await PushRequest(message: message, signer: signer)
            do {
                outcome = try await send(request)
            } catch {
                outcome = Self.outcome(of: error)
            }
        } catch {
            outcome = .rejected(status: nil, reason: "not made: \(error)")
        }
        switch outcome {
        case .delivered:
            logger.debug("push delivered", metadata: ["push.origin": "\(origin)"])
        case .gone(let status):
            logger.info("push subscription gone", metadata: ["push.origin": "\(origin)", "push.status": "\(status)"])
        case .retry(let after, let reason):
            logger.notice(
                "push to retry",
                metadata: [
                    "push.origin": "\(origin)", "push.reason": "\(reason)", "push.retryAfter": "\(after, default: "-")",
                ])
        case .rejected(let status, let reason):
            logger.warning(
                "push rejected",
                metadata: [
                    "push.origin": "\(origin)", "push.status": "\(status, default: "-")", "push.reason": "\(reason)",
                ])
        }
        return outcome
    }

    private func send(_ push: PushRequest) async throws -> PushOutcome {
        var request = HTTPClientRequest(url: push.endpoint.absoluteString)
        request.method = .POST
        for (name, value) in push.headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: push.body))
        let (seconds, attoseconds) = timeout.components
        let response = try await httpClient.execute(
            request, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let status = Int(response.status.code)
        let body = (try? await response.body.collect(upTo: 1024)).map { String(buffer: $0) } ?? ""
        let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfterHeader.delay(from: $0) }
        let reason = body.isEmpty ? "status \(status)" : "status \(status): \(body.prefix(200))"
        return PushOutcome.of(status: status, retryAfter: retryAfter, reason: reason)
    }

    /// A request that got no answer (a timeout, a refused or broken connection) is worth another
    /// try. (`PushMessage` has checked the endpoint is an HTTP(S) URL with a host.)
    private static func outcome(of error: any Error) -> PushOutcome {
        let timeouts: [HTTPClientError] = [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout]
        if let error = error as? HTTPClientError, timeouts.contains(error) {
            return .retry(after: nil, reason: "timeout")
        }
        return .retry(after: nil, reason: "\(error)")
    }
}
