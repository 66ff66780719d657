import Foundation

/// A `Retry-After` header (RFC 9110 §10.2.3): seconds, or an HTTP date. The API client and
/// the push deliverer (`ChirpPush`) read it the same way.
public enum RetryAfterHeader {
    /// The delay `value` asks for, from `now`; nil when it is neither form. A date in the past
    /// is no delay.
    public static func delay(from value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }
}
