import Foundation

/// One push to one subscription: where, to which keys, the payload (JSON, in the clear until it
/// is encrypted) and the RFC 8030 headers. The payload is at most 3 KB (API.md).
public struct PushMessage: Sendable {
    /// The largest payload the API sends.
    public static let maximumPayloadSize = 3 * 1024
    /// How long a push service keeps an undelivered message: one day.
    public static let defaultTimeToLive = 86_400

    /// The subscription's endpoint.
    public let endpoint: URL
    /// The subscription's keys.
    public let keys: PushSubscriptionKeys
    /// The plaintext payload.
    public let payload: Data
    /// Collapses the messages of one conversation (`Topic`).
    public let topic: PushTopic?
    /// Seconds the push service keeps it (`TTL`).
    public let timeToLive: Int
    /// `Urgency`.
    public let urgency: PushUrgency

    /// A message; throws when the payload is over 3 KB or the endpoint is not an HTTP(S) URL.
    public init(
        endpoint: URL, keys: PushSubscriptionKeys, payload: Data, topic: PushTopic?,
        timeToLive: Int = defaultTimeToLive, urgency: PushUrgency = .high
    ) throws {
        guard payload.count <= Self.maximumPayloadSize else {
            throw PushMessageError.payloadTooLarge(payload.count)
        }
        _ = try PushEndpoint.origin(of: endpoint)
        self.endpoint = endpoint
        self.keys = keys
        self.payload = payload
        self.topic = topic
        self.timeToLive = max(0, timeToLive)
        self.urgency = urgency
    }
}

/// Why a push message was not made.
public enum PushMessageError: Error, Equatable {
    /// The payload has this many bytes, over `PushMessage.maximumPayloadSize`.
    case payloadTooLarge(Int)
}
