import Foundation

/// A point in time with millisecond precision, encoded as RFC 3339 UTC text with milliseconds
/// (`2026-11-22T10:15:30.123Z`), the only time format of the Chirp API.
///
/// Formatting is done by hand from the millisecond count: it is on the hot path of every
/// response, and Foundation's formatters are both slower and locale-sensitive.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a timestamp from a `Date`, rounded to the nearest millisecond.
    public init(_ date: Date) {
        self.millisecondsSince1970 = Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The current time.
    public static func now() -> Timestamp { Timestamp(Date()) }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// RFC 3339 text, UTC, with exactly three fractional digits.
    public var description: String { rfc3339 }

    /// RFC 3339 text, UTC, with exactly three fractional digits.
    public var rfc3339: String {
        let ms = millisecondsSince1970
        var days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - days * 86_400_000
        // Civil-from-days (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let hour = msOfDay / 3_600_000
        let minute = (msOfDay / 60_000) % 60
        let second = (msOfDay / 1000) % 60
        let milli = msOfDay % 1000
        // Written straight into the string's storage: an array per field cost about 7,000
        // instructions a timestamp, three per send (`scripts/count-send-instructions`).
        return String(unsafeUninitializedCapacity: 24) { out in
            func put(_ value: Int64, width: Int, at start: Int) {
                var v = value
                for i in stride(from: start + width - 1, through: start, by: -1) {
                    out[i] = UInt8(48 + v % 10)
                    v /= 10
                }
            }
            put(year, width: 4, at: 0)
            out[4] = 45
            put(month, width: 2, at: 5)
            out[7] = 45
            put(day, width: 2, at: 8)
            out[10] = 84
            put(hour, width: 2, at: 11)
            out[13] = 58
            put(minute, width: 2, at: 14)
            out[16] = 58
            put(second, width: 2, at: 17)
            out[19] = 46
            put(milli, width: 3, at: 20)
            out[23] = 90
            return 24
        }
    }

    /// Parses RFC 3339 text (any offset, zero to nine fractional digits).
    public init?(rfc3339 text: String) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) {
            self.init(date)
            return
        }
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { return nil }
        self.init(date)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an RFC 3339 time, got \(text)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }
}
