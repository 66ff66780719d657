import ChirpModels
import Foundation

/// `messages.envelope`: an encrypted message's envelope (API.md part 4) as JSON, stored as
/// the sender sent it (re-encoded, keys sorted); NULL for a plaintext message or a tombstone.
enum EnvelopeColumn {
    static func encode(_ envelope: Envelope) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(envelope), as: UTF8.self)
    }

    /// A message's column: its envelope encoded, or NULL for a plaintext message.
    static func encode(_ envelope: Envelope?) throws -> String? {
        try envelope.map(encode)
    }

    static func decode(_ stored: String?) throws -> Envelope? {
        guard let stored else { return nil }
        do {
            return try JSONDecoder().decode(Envelope.self, from: Data(stored.utf8))
        } catch {
            throw StorageError.inconsistent("a stored envelope does not decode: \(error)")
        }
    }
}
