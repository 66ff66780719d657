/// Turns the bytes a terminal sends into keys: UTF-8 text, control keys, and the escape
/// sequences of arrows, paging, Home/End, Delete, Shift-Tab and Alt-Enter.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Decodes one read's bytes. A lone ESC at the end of a read is the Escape key (terminals
    /// send whole sequences in one write).
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                let (key, length) = escapeSequence(at: index)
                keys.append(key)
                index += length
            case 0x0D:
                keys.append(.enter)
                index += 1
            case 0x0A:
                keys.append(.newline)
                index += 1
            case 0x09:
                keys.append(.tab)
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x01...0x1A:
                keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
                index += 1
            case 0x00...0x1F:
                index += 1
            default:
                let length = Self.utf8Length(byte)
                guard index + length <= pending.count else {
                    // An incomplete character: keep it for the next read.
                    pending.removeFirst(index)
                    return keys
                }
                let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
                keys += text.map { Key.character($0) }
                index += length
            }
        }
        pending.removeAll()
        return keys
    }

    private func escapeSequence(at start: Int) -> (Key, Int) {
        let rest = Array(pending[(start + 1)...])
        guard let first = rest.first else { return (.escape, 1) }
        if first == 0x0D { return (.newline, 2) }  // Alt-Enter
        guard first == UInt8(ascii: "[") || first == UInt8(ascii: "O") else { return (.escape, 1) }
        var length = 1
        var parameters = ""
        for byte in rest.dropFirst() {
            length += 1
            if (0x40...0x7E).contains(byte) {
                let final = Character(Unicode.Scalar(byte))
                let key: Key? =
                    switch (final, parameters) {
                    case ("A", _): .up
                    case ("B", _): .down
                    case ("C", _): .right
                    case ("D", _): .left
                    case ("H", _): .home
                    case ("F", _): .end
                    case ("Z", _): .backTab
                    case ("~", "5"): .pageUp
                    case ("~", "6"): .pageDown
                    case ("~", "3"): .delete
                    case ("~", "1"), ("~", "7"): .home
                    case ("~", "4"), ("~", "8"): .end
                    default: nil
                    }
                return (key ?? .escape, 1 + length)
            }
            parameters.append(Character(Unicode.Scalar(byte)))
        }
        return (.escape, 1 + length)
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...0xF7: 4
        case 0xE0...0xEF: 3
        case 0xC0...0xDF: 2
        default: 1
        }
    }
}
