import Logging
import Synchronization

/// A swift-log `LogHandler` that sends every `Logger` call into a `LogService`, keeping
/// metadata and using the logger's label as the entry's source.
///
/// ```swift
/// LoggingSystem.bootstrap { label in SwiftLogBridge(label: label, service: logs) }
/// ```
///
/// Its `logLevel` follows what the service's observers want, so swift-log skips building
/// messages nobody will read. Levels map as trace/debug → debug, info/notice → info,
/// warning → warning, error → error, critical → fatal.
public struct SwiftLogBridge: LogHandler {
    /// Label and service in one object, shared by every handler of that label and service and
    /// kept for the life of the process (`Target.shared`). swift-log copies the handler on every
    /// level check; holding the target `unowned(unsafe)` and the metadata as an optional (nil
    /// until set) makes that copy retain nothing, which is what keeps a call at a level nobody
    /// observes close to swift-log's no-op handler.
    final class Target: Sendable {
        let label: String
        let service: LogService

        private init(label: String, service: LogService) {
            self.label = label
            self.service = service
        }

        private struct Key: Hashable {
            let service: ObjectIdentifier
            let label: String
        }

        /// Never emptied: one small object per label and service, for the process's life.
        private static let registry = Mutex<[Key: Target]>([:])

        static func shared(label: String, service: LogService) -> Target {
            registry.withLock { registry in
                let key = Key(service: ObjectIdentifier(service), label: label)
                if let target = registry[key] { return target }
                let target = Target(label: label, service: service)
                registry[key] = target
                return target
            }
        }
    }

    private unowned(unsafe) let target: Target
    private var storedMetadata: Logging.Logger.Metadata?
    /// Key-value context.
    public var metadata: Logging.Logger.Metadata {
        get { storedMetadata ?? [:] }
        set { storedMetadata = newValue.isEmpty ? nil : newValue }
    }
    /// Set to override the level the service's observers imply.
    public var minimumLevel: Logging.Logger.Level?

    /// The logger's label, used as each entry's source.
    public var label: String { target.label }
    /// Where entries go.
    public var service: LogService { target.service }

    /// A handler for the logger labelled `label`, sending into `service`.
    public init(label: String, service: LogService) {
        target = Target.shared(label: label, service: service)
    }

    /// The least severe level worth formatting: what the observers want, unless `minimumLevel` is set.
    public var logLevel: Logging.Logger.Level {
        get {
            if let minimumLevel { return minimumLevel }
            switch service.lowestObservedLevel {
            case .debug?: return .trace
            case .info?: return .info
            case .warning?: return .warning
            case .error?: return .error
            case .fatal?, nil: return .critical
            }
        }
        set { minimumLevel = newValue }
    }

    /// One metadata value of this logger.
    public subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { storedMetadata?[key] }
        set { metadata[key] = newValue }
    }

    /// Sends a swift-log event into the service.
    public func log(event: LogEvent) {
        let level = Self.level(event.level)
        guard service.isEnabled(level) else { return }
        var merged = storedMetadata ?? [:]
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let flat = merged.isEmpty ? nil : merged.mapValues { "\($0)" }
        service.log(LogEntry(level: level, message: event.message.description, metadata: flat, source: label))
    }

    /// The `LogLevel` for a swift-log level.
    public static func level(_ level: Logging.Logger.Level) -> LogLevel {
        switch level {
        case .trace, .debug: .debug
        case .info, .notice: .info
        case .warning: .warning
        case .error: .error
        case .critical: .fatal
        }
    }
}
