import ChirpLogging
import Logging
import Testing

@Suite("swift-log bridge")
struct SwiftLogBridgeTests {
    @Test func loggerCallsFlowThroughWithMetadataAndLabel() {
        let service = LogService()
        let observer = CollectingObserver()
        service.register(observer, levels: LogLevel.info.andAbove)
        var logger = Logger(label: "chirp.sync") { SwiftLogBridge(label: $0, service: service) }
        logger[metadataKey: "user"] = "alice"
        #expect(logger.logLevel == .info)
        logger.info("connected", metadata: ["attempt": "2"])
        logger.notice("notice")
        logger.warning("slow")
        logger.error("failed")
        logger.critical("crashed")
        var built = false
        func expensive() -> String {
            built = true
            return "debug"
        }
        logger.debug("\(expensive())")
        logger.trace("trace")
        service.flush()
        #expect(!built, "a level nobody observes is not even formatted")
        #expect(observer.received.map(\.level) == [.info, .info, .warning, .error, .fatal])
        let first = observer.received[0]
        #expect(
            first.message == "connected" && first.source == "chirp.sync"
                && first.metadata == ["user": "alice", "attempt": "2"])
        #expect(logger[metadataKey: "user"] == "alice")
    }

    @Test func logLevelFollowsObserversUnlessSet() {
        let service = LogService()
        var bridge = SwiftLogBridge(label: "x", service: service)
        #expect(bridge.logLevel == .critical)
        let registration = service.register(CollectingObserver(), levels: [.debug])
        #expect(bridge.logLevel == .trace)
        service.unregister(registration)
        service.register(CollectingObserver(), levels: [.warning])
        #expect(bridge.logLevel == .warning)
        service.register(CollectingObserver(), levels: [.fatal])
        #expect(bridge.logLevel == .warning)
        bridge.logLevel = .error
        #expect(bridge.logLevel == .error)
        #expect(
            SwiftLogBridge.level(.trace) == .debug && SwiftLogBridge.level(.notice) == .info
                && SwiftLogBridge.level(.critical) == .fatal)
        let errorsOnly = LogService()
        errorsOnly.register(CollectingObserver(), levels: [.error])
        #expect(SwiftLogBridge(label: "y", service: errorsOnly).logLevel == .error)
    }
}
