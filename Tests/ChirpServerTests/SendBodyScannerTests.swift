import ChirpModels
import Foundation
import NIOCore
import Testing

@testable import ChirpServer

/// `SendBodyScanner` against Foundation's decoder: whenever the scanner reads a body, the
/// decoder reads the same request from it; what the scanner leaves, the decoder answers.
@Suite("Send body scanner")
struct SendBodyScannerTests {
    private func scanned(_ bytes: [UInt8]) -> SendMessageRequest? { SendBodyScanner.scan(ByteBuffer(bytes: bytes)) }
    private func decoded(_ bytes: [UInt8]) -> SendMessageRequest? {
        try? JSONDecoder().decode(SendMessageRequest.self, from: Data(bytes))
    }

    @Test func readsThePlainFormsClientsSend() throws {
        let bodies: [(String, SendMessageRequest)] = [
            (
                #"{"text":"t000000000042 load test message"}"#,
                SendMessageRequest(text: "t000000000042 load test message")
            ),
            (
                #" { "text" : "héllo 👋 / there" , "replyTo" : "17" } "#,
                SendMessageRequest(text: "héllo 👋 / there", replyTo: "17")
            ),
            (#"{"mediaIds":["3","4"],"replyTo":null,"text":""}"#, SendMessageRequest(text: "", mediaIds: ["3", "4"])),
            ("{\n\t\"text\": \"a\",\r\n\"mediaIds\": [ ]\n}", SendMessageRequest(text: "a", mediaIds: [])),
            (#"{"text":"x","mediaIds":null}"#, SendMessageRequest(text: "x")),
        ]
        for (body, expected) in bodies {
            #expect(scanned(Array(body.utf8)) == expected, "\(body)")
            #expect(decoded(Array(body.utf8)) == expected, "\(body)")
        }
        // What the clients' own encoder writes.
        for request in [
            SendMessageRequest(text: "hi / \u{7F} é"), SendMessageRequest(text: "x", mediaIds: ["9"], replyTo: "2"),
        ] {
            let bytes = Array(try APIJSON.encoder().encode(request))
            #expect(scanned(bytes) == request, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func leavesEverythingElseToTheDecoder() {
        let left = [
            #"{"text":"a \"quote\""}"#, #"{"text":"tab\tescaped"}"#, #"{"text":"\u00e9"}"#,
            "{\"text\":\"raw \u{01} control\"}",
            #"{"text":"a","text":"b"}"#, #"{"text":"a","extra":1}"#, #"{"text":null}"#, #"{"text":5}"#, #"{}"#, #"[]"#,
            "",
            #"{"text":"a"} x"#, #"{"text":"a",}"#, #"{"text":"a","mediaIds":["1",]}"#, #"{"text":"a","mediaIds":[1]}"#,
            #"{"text":"a","replyTo":17}"#, #"{"text":"a""#, #"{"te\u0078t":"a"}"#, "\u{FEFF}{\"text\":\"a\"}",
        ]
        for body in left { #expect(scanned(Array(body.utf8)) == nil, "\(body)") }
        #expect(
            scanned([0x7B, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) == nil,
            "invalid UTF-8")
    }

    /// Thousands of bodies built from pieces, cut short and with bytes flipped: the scanner
    /// never reads one the decoder reads otherwise, or one the decoder refuses.
    @Test func neverDisagreesWithTheDecoder() {
        var random = SplitMix64(seed: 38)
        let strings = [
            #""""#, #""a b""#, #""é👋""#, #""a\"b""#, #""\\""#, #""/x/""#, #""\u0041""#, "\"\u{01}\"", #""7""#,
        ]
        let keys = [#""text""#, #""replyTo""#, #""mediaIds""#, #""other""#, #""Text""#]
        let values = strings + ["null", "1", "[]", #"["1"]"#, #"["1","2"]"#, #"[null]"#, "true", "{}"]
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        var read = 0
        for _ in 0..<20_000 {
            let pairs = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                keys.randomElement(using: &random)! + spaces.randomElement(using: &random)! + ":"
                    + spaces.randomElement(using: &random)! + values.randomElement(using: &random)!
            }
            var bytes = Array(("{" + pairs.joined(separator: "," + spaces.randomElement(using: &random)!) + "}").utf8)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            default: break
            }
            if let fast = scanned(bytes) {
                read += 1
                #expect(decoded(bytes) == fast, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(read > 100, "the scanner read \(read) of the bodies")
    }
}

/// A small seeded generator, so a failure repeats.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
