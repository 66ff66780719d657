import ChirpTerminal
import Testing

/// Key decoding, display widths, frames and diffs.
@Suite("Terminal primitives")
struct TerminalPrimitivesTests {
    @Test func keysAreDecodedFromTheBytesATerminalSends() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("hé".utf8)) == [.character("h"), .character("é")])
        #expect(
            decoder.feed([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x5A]) == [
                .up, .down, .pageUp, .backTab,
            ])
        #expect(
            decoder.feed([0x0D, 0x1B, 0x0D, 0x0A, 0x7F, 0x09, 0x12, 0x03]) == [
                .enter, .newline, .newline, .backspace, .tab, .control("r"), .control("c"),
            ])
        #expect(decoder.feed([0x1B]) == [.escape])
        // A character split across two reads.
        let bird = Array("🐦".utf8)
        #expect(decoder.feed(Array(bird.prefix(2))).isEmpty)
        #expect(decoder.feed(Array(bird.dropFirst(2))) == [.character("🐦")])
    }

    @Test func textInputEditsAndKeepsToItsLimit() {
        var input = TextInput(limit: 3)
        for character in "abcd" {
            let taken = input.handle(.character(character))
            #expect(taken)
        }
        #expect(input.text == "abc")
        let erased = input.handle(.backspace)
        #expect(erased && input.text == "ab")
        let newline = input.handle(.newline)
        #expect(!newline, "a single-line input takes no new line")
        var multiline = TextInput()
        _ = multiline.handle(.character("a"))
        _ = multiline.handle(.newline, multiline: true)
        _ = multiline.handle(.character("b"))
        #expect(multiline.text == "a\nb")
        let cleared = multiline.handle(.control("u"))
        #expect(cleared && multiline.text.isEmpty)
        let arrow = multiline.handle(.up)
        #expect(!arrow, "not an editing key")
    }

    @Test func widthsCountWideCharactersAndEmojiAsTwoColumns() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("你好") == 4)
        #expect(TextWidth.of("👋🏽") == 2)
        #expect(TextWidth.of("👨‍👩‍👧") == 2)
        #expect(TextWidth.of("🇫🇷") == 2)
        #expect(TextWidth.of("é") == 1)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.prefix("ab你好", fitting: 5) == "ab你")
    }

    @Test func aWideCharacterIsNeverSplitAtTheEdge() {
        var frame = Frame(width: 5, height: 1)
        let end = frame.draw("abc你", x: 0, y: 0)
        #expect(end == 5)
        #expect(frame.text == "abc你")
        var clipped = Frame(width: 4, height: 1)
        clipped.draw("abc你", x: 0, y: 0)
        #expect(clipped.text == "abc")
    }

    @Test func controlCharactersAreDrawnAsTheirEscapesNeverWritten() {
        var frame = Frame(width: 30, height: 1)
        frame.draw("a\u{1B}[2J\r\nb\u{202E}c", x: 0, y: 0)
        #expect(frame.text == "a\\u{1B}[2J\\u{D}\\u{A}b\\u{202E}c")
        let written = FrameDiff.ansi(from: Frame(width: 30, height: 1), to: frame)
        #expect(!written.unicodeScalars.contains { ["\r", "\n", "\u{202E}"].contains($0) })
        #expect(
            written.unicodeScalars.filter { $0 == "\u{1B}" }.count == written.components(separatedBy: "\u{1B}[").count
                - 1,
            "every ESC written starts one of the diff's own sequences")
    }

    @Test func theDiffWritesOnlyTheCellsThatChanged() {
        var old = Frame(width: 20, height: 3)
        old.draw("hello world", x: 0, y: 1)
        var new = old
        new.draw("W", x: 6, y: 1, style: CellStyle(bold: true))
        let diff = FrameDiff.ansi(from: old, to: new)
        #expect(diff.contains("\u{1B}[2;7H"))
        #expect(diff.contains("W"))
        #expect(!diff.contains("hello"))
        #expect(FrameDiff.ansi(from: new, to: new) == "\u{1B}[0m", "no change, nothing written")
        // The first frame (or a resize) is written whole, after a clear.
        let full = FrameDiff.ansi(from: nil, to: new)
        #expect(full.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        #expect(full.contains("hello"))
    }
}
