import ChirpModels
import Testing

@Suite("Text from others, escaped for a terminal")
struct TerminalTextTests {
    @Test func controlCharactersAreShownAsSwiftEscapes() {
        #expect(TerminalText.escaped("\u{1B}[2J\r\nFAKE") == "\\u{1B}[2J\\u{D}\\u{A}FAKE")
        #expect(TerminalText.escaped("a\tb\u{0}c\u{7}") == "a\\u{9}b\\u{0}c\\u{7}")
        #expect(TerminalText.escaped("del\u{7F} csi\u{9B}31m c1\u{85}") == "del\\u{7F} csi\\u{9B}31m c1\\u{85}")
        #expect(TerminalText.escaped("line\u{2028}para\u{2029}") == "line\\u{2028}para\\u{2029}")
    }

    @Test func bidiOverridesAndIsolatesAreShownAsEscapes() {
        let overrides = (0x202A...0x202E).map { Unicode.Scalar($0)! } + (0x2066...0x2069).map { Unicode.Scalar($0)! }
        for scalar in overrides {
            let escaped = TerminalText.escaped("invoice\(Character(scalar))fdp.exe")
            #expect(escaped == "invoice\\u{\(String(scalar.value, radix: 16, uppercase: true))}fdp.exe")
        }
    }

    @Test func printableTextIsLeftAsItIs() {
        for text in [
            "", "hello", "café ☕️ 👩‍👩‍👧 日本語 שלום", "a \\u{1B} typed by hand", "quotes \" and \\ backslashes", "\u{200F}mark",
        ] {
            #expect(TerminalText.escaped(text) == text, "\(text)")
        }
    }

    @Test func escapingTwiceChangesNothing() {
        for text in ["\u{1B}[31mred\u{1B}[0m\r\n", "\u{202E}evil", "plain"] {
            let once = TerminalText.escaped(text)
            #expect(TerminalText.escaped(once) == once)
            #expect(!once.unicodeScalars.contains(where: TerminalText.isEscaped))
            let quoted = TerminalText.quoted(text)
            #expect(TerminalText.escaped(quoted) == quoted)
        }
    }

    @Test func quotedTextIsOneFieldWhoseEndCannotBeFaked() {
        #expect(TerminalText.quoted("hi") == "\"hi\"")
        #expect(TerminalText.quoted("say \"bye\" \\ now\n") == "\"say \\\"bye\\\" \\\\ now\\u{A}\"")
        #expect(TerminalText.quoted("") == "\"\"")
    }
}
