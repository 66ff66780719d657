import ChirpModels
import ChirpPersistence
import Foundation

/// What a data export adds for encrypted conversations: the server's archive holds only their
/// envelopes, so the export appends this device's decrypted copies as
/// `chirp-export/encrypted-messages.json` (one more ustar entry, written where the archive's
/// end marker was).
enum EncryptedCopiesArchive {
    /// The entry's name in the archive.
    static let entryName = "chirp-export/encrypted-messages.json"

    /// One decrypted copy as exported.
    struct Entry: Codable, Sendable, Equatable {
        /// The conversation: the peer, or `g:ID`.
        var conversation: String
        var id: String?
        var clientMessageId: String
        var sender: String
        var createdAt: String
        var editedAt: String?
        /// The decrypted text; empty when this device could not open it.
        var text: String
        var replyTo: String?
        var verification: MessageVerification
        var attachments: [LocalAttachment]
    }

    static func entries(_ messages: [LocalMessage]) -> [Entry] {
        messages.compactMap { message in
            guard let verification = message.verification, !message.deleted else { return nil }
            return Entry(
                conversation: message.peer, id: message.serverId, clientMessageId: message.clientMessageId,
                sender: message.sender, createdAt: message.createdAt, editedAt: message.editedAt, text: message.text,
                replyTo: message.replyTo, verification: verification, attachments: message.attachments)
        }
    }

    /// Appends `data` as `name` to the ustar archive at `url` (which ends with its two zero
    /// blocks, as the server writes it).
    static func append(_ data: Data, as name: String, to url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        // Walk the headers to the end marker.
        var offset: UInt64 = 0
        while true {
            try handle.seek(toOffset: offset)
            guard let header = try handle.read(upToCount: 512), header.count == 512, header.contains(where: { $0 != 0 })
            else { break }
            let sizeField = String(decoding: header[124..<136].prefix { $0 != 0 && $0 != 32 }, as: UTF8.self)
            guard let size = UInt64(sizeField, radix: 8) else { throw CocoaError(.fileReadCorruptFile) }
            offset += 512 + (size + 511) / 512 * 512
        }
        try handle.truncate(atOffset: offset)
        try handle.seek(toOffset: offset)
        var entry = header(name, size: data.count, mtime: Int64(Date().timeIntervalSince1970))
        entry.append(data)
        entry.append(Data(count: (512 - data.count % 512) % 512 + 1024))
        try handle.write(contentsOf: entry)
        try handle.synchronize()
    }

    /// A ustar header for a regular file, mode 0600.
    static func header(_ name: String, size: Int, mtime: Int64) -> Data {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) {
            header.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        }
        func octal(_ value: Int64, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(Array(name.utf8.prefix(100)), at: 0)
        put(octal(0o600, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(Int64(size), width: 12), at: 124)
        put(octal(mtime, width: 12), at: 136)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)
        header[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        let checksum = header.reduce(Int64(0)) { $0 + Int64($1) }
        put(octal(checksum, width: 7) + [UInt8(ascii: " ")], at: 148)
        return Data(header)
    }
}
