import ChirpModels
import Foundation
import Testing

@Suite("Timestamp")
struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(1_795_342_530_123), "2026-11-22T10:15:30.123Z"),
        (Int64(951_782_400_000), "2000-02-29T00:00:00.000Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (Int64(253_402_300_799_999), "9999-12-31T23:59:59.999Z"),
    ])
    func formatsRFC3339WithMilliseconds(_ ms: Int64, _ text: String) throws {
        let timestamp = Timestamp(millisecondsSince1970: ms)
        #expect(timestamp.rfc3339 == text)
        #expect(Timestamp(rfc3339: text) == timestamp)
    }

    @Test func agreesWithFoundationOnRandomInstants() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let ms = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let timestamp = Timestamp(millisecondsSince1970: ms)
            #expect(timestamp.rfc3339 == formatter.string(from: timestamp.date))
        }
    }

    @Test func parsesOffsetsAndRejectsGarbage() throws {
        #expect(Timestamp(rfc3339: "2026-11-22T11:15:30.123+01:00")?.rfc3339 == "2026-11-22T10:15:30.123Z")
        #expect(Timestamp(rfc3339: "2026-11-22T10:15:30Z")?.rfc3339 == "2026-11-22T10:15:30.000Z")
        #expect(Timestamp(rfc3339: "yesterday") == nil)
        let decoded = try JSONDecoder().decode([Timestamp].self, from: Data(#"["2026-11-22T10:15:30.123Z"]"#.utf8))
        #expect(decoded.first?.millisecondsSince1970 == 1_795_342_530_123)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Timestamp].self, from: Data(#"["nope"]"#.utf8))
        }
    }
}
