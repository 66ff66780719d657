extension KeyedDecodingContainer {
    /// A body's `text` (API.md part 4): required when the body has no envelope, optional (nil
    /// when absent) beside one, where the text travels sealed.
    func decodeText(forKey key: Key, sealed: Bool) throws -> String? {
        sealed ? try decodeIfPresent(String.self, forKey: key) : try decode(String.self, forKey: key)
    }
}
