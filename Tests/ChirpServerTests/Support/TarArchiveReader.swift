import Foundation

/// Reads the regular files of a ustar archive (tests of the data export): name → bytes, in
/// the archive's order. Fails on a header whose checksum is wrong.
enum TarArchiveReader {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func entries(_ archive: Data) throws -> [(name: String, bytes: Data)] {
        let bytes = [UInt8](archive)
        var offset = 0
        var found: [(String, Data)] = []
        while offset + 512 <= bytes.count {
            let header = Array(bytes[offset..<offset + 512])
            if header.allSatisfy({ $0 == 0 }) { return found }
            let stored = Int(field(header, 148, 8).trimmingCharacters(in: .whitespaces), radix: 8)
            let sum = header.enumerated().reduce(0) { $0 + (148..<156 ~= $1.offset ? 32 : Int($1.element)) }
            guard stored == sum, field(header, 257, 5) == "ustar" else {
                throw Malformed(description: "bad header at \(offset)")
            }
            guard let size = Int(field(header, 124, 12), radix: 8) else {
                throw Malformed(description: "bad size at \(offset)")
            }
            let start = offset + 512
            guard start + size <= bytes.count else { throw Malformed(description: "truncated at \(offset)") }
            found.append((field(header, 0, 100), Data(bytes[start..<start + size])))
            offset = start + (size + 511) / 512 * 512
        }
        throw Malformed(description: "no end-of-archive blocks")
    }

    private static func field(_ header: [UInt8], _ offset: Int, _ length: Int) -> String {
        String(decoding: header[offset..<offset + length].prefix { $0 != 0 }, as: UTF8.self)
    }
}
