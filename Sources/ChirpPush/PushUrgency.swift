/// A push message's `Urgency` (RFC 8030 §5.3): how soon a device on battery should be woken.
public enum PushUrgency: String, Sendable, CaseIterable {
    case veryLow = "very-low"
    case low
    case normal
    case high
}
