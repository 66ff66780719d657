/// Body of `PATCH …/messages/{messageId}` (API.md parts 2 and 4): the new text, or in an
/// encrypted conversation a new envelope sealed under the message's `clientMessageId`.
public struct EditMessageRequest: Sendable, Hashable, Codable {
    public var text: String?
    public var envelope: Envelope?

    public init(text: String) { self.text = text }

    public init(envelope: Envelope) { self.envelope = envelope }

    enum CodingKeys: String, CodingKey { case text, envelope }

    /// `text` is required unless there is an envelope.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        envelope = try container.decodeIfPresent(Envelope.self, forKey: .envelope)
        text = try container.decodeText(forKey: .text, sealed: envelope != nil)
    }
}
