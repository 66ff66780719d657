/// How severe a log entry is, from `debug` to `fatal`.
public enum LogLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case debug, info, warning, error, fatal

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        case .fatal: 4
        }
    }

    /// The level of a rank (0 debug … 4 fatal).
    init(rank: Int) {
        switch rank {
        case 0: self = .debug
        case 1: self = .info
        case 2: self = .warning
        case 3: self = .error
        default: self = .fatal
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }

    /// This level and every more severe one.
    public var andAbove: Set<LogLevel> { Set(Self.allCases.filter { $0 >= self }) }

    /// Bit of this level in a set mask.
    var bit: UInt8 { 1 << UInt8(rank) }
}
