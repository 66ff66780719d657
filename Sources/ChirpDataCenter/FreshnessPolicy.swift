/// When `DataCenter.update` calls the network.
public enum FreshnessPolicy: Sendable, Hashable {
    /// Always.
    case always
    /// Only when the last successful refresh of the same request is older than this.
    case ifOlderThan(Duration)
}

/// What `DataCenter.update` did.
public enum UpdateOutcome: Sendable, Hashable {
    /// Fetched this many records and handed them to the model's writer.
    case refreshed(count: Int)
    /// Skipped: the last refresh is recent enough.
    case fresh
}

/// Failures of the data center itself (network and storage errors pass through unchanged).
public enum DataCenterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No writer was registered for this model type.
    case notRegistered(String)

    public var description: String {
        switch self {
        case .notRegistered(let type): "no writer registered for \(type); call DataCenter.register(_:) at start-up"
        }
    }
}
