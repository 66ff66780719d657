/// How many terminal columns text takes: wide (East Asian) characters and emoji take two,
/// combining marks and zero-width joiners none. The table is ours, not the C library's
/// `wcwidth`, so a frame is the same on every machine. Measured per grapheme cluster, so a family
/// emoji or a flag is one glyph of width two.
public enum TextWidth {
    /// Columns of one grapheme cluster.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || first.value == 0x7F { return 0 }
        if first.isASCII { return 1 }
        // Emoji shown as pictures (by default, or with VS16), flags and keycaps are two wide.
        if first.properties.isEmojiPresentation
            || scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji
        {
            return 2
        }
        if first.properties.isEmojiModifier || first.properties.generalCategory == .nonspacingMark { return 0 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // regional indicators
        return systemWidth(first)
    }

    /// Columns of a string.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The longest prefix of `text` that fits in `columns`.
    public static func prefix(_ text: String, fitting columns: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let width = of(character)
            if used + width > columns { break }
            used += width
            result.append(character)
        }
        return result
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15), the ones text actually uses.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func systemWidth(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }
}
