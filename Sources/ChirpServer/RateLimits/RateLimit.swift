import ChirpModels

/// One configured limit: at most `count` events per `window` (a sliding window). Written on
/// the command line as `COUNT/WINDOW`, the window in seconds or with a unit: `10/1h`,
/// `300/3h`, `400/1d`, `200/15m`, `5/30s`.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    public var count: Int
    public var window: Duration

    public init(count: Int, window: Duration) {
        self.count = count
        self.window = window
    }

    /// `COUNT/WINDOW` as above; nil for anything else (a count below 1, a window below 1 s).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), count >= 1, let window = DurationShorthand.seconds(parts[1]),
            window >= 1
        else { return nil }
        self.init(count: count, window: .seconds(window))
    }

    /// The window in whole seconds.
    public var windowSeconds: Int64 { window.components.seconds }

    public var description: String {
        let seconds = windowSeconds
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60)] where seconds % size == 0 {
            return "\(count)/\(seconds / size)\(unit)"
        }
        return "\(count)/\(seconds)s"
    }
}
