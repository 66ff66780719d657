/// What became of one push request, and so what the caller does next.
public enum PushOutcome: Sendable, Equatable {
    /// The push service took the message (200, 201, 202).
    case delivered
    /// The subscription has ended (404, 410): delete it.
    case gone(status: Int)
    /// Try again later (429, 5xx, a connection error, a timeout): after `after` at the least when
    /// the push service said so (`Retry-After`), otherwise as `PushRetryPolicy` says.
    case retry(after: Duration?, reason: String)
    /// The push service refused this message (another 4xx), or it could not be sent: drop this
    /// delivery and log it; the subscription stays.
    case rejected(status: Int?, reason: String)

    /// The outcome of an HTTP answer with `status`, its `Retry-After` delay and a reason to log.
    public static func of(status: Int, retryAfter: Duration?, reason: String) -> PushOutcome {
        switch status {
        case 200, 201, 202: .delivered
        case 404, 410: .gone(status: status)
        case 429, 500...599: .retry(after: retryAfter, reason: reason)
        default: .rejected(status: status, reason: reason)
        }
    }
}
