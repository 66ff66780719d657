/// One page of a list: `{"items": [...], "nextCursor": "…" | null}`.
///
/// Pass `nextCursor` back as `cursor` (or, for messages, as `before`/`after`) for the next page;
/// `nil` means there is nothing more in that direction.
public struct Page<Item: Sendable & Codable & Hashable>: Sendable, Hashable, Codable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey { case items, nextCursor }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([Item].self, forKey: .items)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)  // explicit null, as API.md shows
    }
}
