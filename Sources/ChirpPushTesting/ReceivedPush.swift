import Foundation

/// A push the test push service took: its RFC 8030 headers and its decrypted payload.
public struct ReceivedPush: Sendable, Equatable {
    /// The subscription it was for.
    public let subscriptionID: String
    /// `TTL`, in seconds.
    public let timeToLive: Int
    /// `Urgency`, when given.
    public let urgency: String?
    /// `Topic`, when given.
    public let topic: String?
    /// The decrypted payload.
    public let payload: Data

    /// The payload decoded from JSON.
    public func decoded<Payload: Decodable>(as type: Payload.Type = Payload.self) throws -> Payload {
        try JSONDecoder().decode(type, from: payload)
    }

    /// The payload as a JSON object.
    public func jsonObject() throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: payload) as? [String: Any]) ?? [:]
    }
}
