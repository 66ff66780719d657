import ChirpModels
import Logging
import ServiceLifecycle
import Synchronization

/// Puts the messages sends stored on the push queue (`PushStore.queuePushes`), after the send
/// has answered: `stored` only notes the id, and this service's loop queues what gathered in
/// one write, then wakes the `PushDeliveryWorker`. A send never waits on pushing. (Should the
/// process stop between a send and its queueing, that message raises no push; the message
/// itself is stored.) After each queueing the loop lets ids gather for `gatherWindow`: woken by
/// every send, it cost about 2 % of the server's CPU under 25 pairs of senders (a thread wake and
/// a task hop per send), for pushes that leave a few milliseconds sooner.
final class PushNotifier: Service, Sendable {
    /// Ids noted and not queued yet, at most `capacity` (past it, the oldest are dropped).
    private let pending = Mutex<[Int64]>([])
    private let signal: AsyncStream<Void>
    private let signalContinuation: AsyncStream<Void>.Continuation
    private let store: any PushStore
    private let worker: PushDeliveryWorker
    private let now: @Sendable () -> Timestamp
    private let logger: Logger
    static let capacity = 100_000
    /// How long ids gather after a queueing before the next one.
    static let gatherWindow: Duration = .milliseconds(10)
    /// Whether any subscription exists, as last read, and when: read again after
    /// `subscriptionsRecheck` (another instance may have added one) or when this instance
    /// stored one (`subscriptionsChanged`).
    private let knownSubscriptions = Mutex<KnownSubscriptions>(KnownSubscriptions())
    static let subscriptionsRecheck: Duration = .seconds(1)

    init(store: any PushStore, worker: PushDeliveryWorker, now: @escaping @Sendable () -> Timestamp, logger: Logger) {
        (signal, signalContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.store = store
        self.worker = worker
        self.now = now
        self.logger = logger
    }

    /// A subscription was stored here: the next queueing reads again whether any exist.
    func subscriptionsChanged() {
        knownSubscriptions.withLock { known in
            known.answer = nil
            known.generation += 1
        }
    }

    /// A send stored message `id` (direct or group).
    func stored(messageId id: Int64) {
        pending.withLock { ids in
            if ids.count >= Self.capacity { ids.removeFirst(ids.count - Self.capacity + 1) }
            ids.append(id)
        }
        signalContinuation.yield()
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            for await _ in signal {
                await queuePending()
                try? await Task.sleep(for: Self.gatherWindow)
            }
        } onGracefulShutdown: {
            self.signalContinuation.finish()
        }
        await queuePending()
    }

    /// Queues what gathered; with no subscription anywhere, drops it after one read.
    func queuePending() async {
        let ids = pending.withLock { ids in
            defer { ids.removeAll(keepingCapacity: true) }
            return ids
        }
        guard !ids.isEmpty else { return }
        do {
            guard try await subscriptionsExist() else { return }
            if try await store.queuePushes(messageIds: ids, at: now()) > 0 { worker.wake() }
        } catch {
            subscriptionsChanged()
            logger.warning("pushes not queued", metadata: ["error": "\(error)", "messages": "\(ids.count)"])
        }
    }

    /// Whether any account has a subscription: read at most once per `subscriptionsRecheck`.
    private func subscriptionsExist() async throws -> Bool {
        let now = ContinuousClock.now
        let (answer, generation) = knownSubscriptions.withLock { ($0.answer, $0.generation) }
        if let answer, now - answer.readAt < Self.subscriptionsRecheck { return answer.exist }
        let exist = try await store.hasPushSubscriptions()
        // Kept only if no subscription was stored while it was read (it might predate it).
        knownSubscriptions.withLock { known in
            if known.generation == generation { known.answer = (exist, now) }
        }
        return exist
    }
}

/// `PushNotifier`'s last answer to whether any subscription exists, and how many times a
/// subscription was stored here (an answer read across one is not kept).
private struct KnownSubscriptions: Sendable {
    var answer: (exist: Bool, readAt: ContinuousClock.Instant)?
    var generation = 0
}
