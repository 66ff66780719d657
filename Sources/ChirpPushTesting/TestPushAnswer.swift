/// How the test push service answers a subscription's pushes.
public enum TestPushAnswer: Sendable, Equatable {
    /// Checks, decrypts and records the push, and answers 201 Created.
    case accept
    /// Checks the push and answers this status (410, 429, 500...) without recording it, with a
    /// `Retry-After` header when one is given.
    case status(Int, retryAfter: String? = nil)
    /// Never answers, until the service stops: a dead push service.
    case hang

    /// 410 Gone: the subscription has ended.
    public static let gone = TestPushAnswer.status(410)
}
