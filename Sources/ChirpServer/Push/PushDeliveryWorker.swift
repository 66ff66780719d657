import ChirpModels
import ChirpPush
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Sends the queued pushes (`PushStore`): takes the due ones, builds each payload from the
/// message as its recipient sees it now (nothing for one read, unsent or muted since),
/// encrypts and signs it (`PushDeliverer`, RFC 8291 and 8292), and ends it as the push service
/// answered: off the queue, again later with backoff (429, 5xx, no answer), or the
/// subscription deleted (404, 410). Pushes run beside each other, at most `concurrency` at a
/// time, each bounded by the timeout; a push service that never answers holds only its own
/// pushes, never a send.
final class PushDeliveryWorker: Service, Sendable {
    private let store: any PushStore
    private let keyring: PushKeyring
    private let timeout: Duration
    private let retries: PushRetryPolicy
    private let now: @Sendable () -> Timestamp
    private let logger: Logger
    /// Set by `wake`, taken by the loop.
    private let woken = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    static let concurrency = 32
    /// How often the queue is looked at with no wake-up (retries come due, other instances).
    static let idlePeriod: Duration = .seconds(1)

    init(
        store: any PushStore, keyring: PushKeyring, timeout: Duration, retries: PushRetryPolicy,
        now: @escaping @Sendable () -> Timestamp, logger: Logger
    ) {
        self.store = store
        self.keyring = keyring
        self.timeout = timeout
        self.retries = retries
        self.now = now
        self.logger = logger
    }

    /// New pushes were queued.
    func wake() { woken.store(true, ordering: .relaxed) }

    func run() async throws {
        await withGracefulShutdownHandler {
            await self.loop()
        } onGracefulShutdown: {
            self.stopping.store(true, ordering: .relaxed)
        }
    }

    private func loop() async {
        while !Task.isCancelled, !stopping.load(ordering: .relaxed) {
            let start = now()
            var sleepUntil = start.millisecondsSince1970 + Self.idlePeriod.milliseconds
            var claimed: [PushJob] = []
            do {
                // A read first: an idle queue costs no write, and its answer says how long to sleep.
                if let due = try await store.nextPushDue() {
                    if due <= start {
                        let lease = Timestamp(
                            millisecondsSince1970: start.millisecondsSince1970 + 2 * timeout.milliseconds + 30_000)
                        claimed = try await store.claimPushes(now: start, leaseEnd: lease, limit: Self.concurrency)
                    } else {
                        sleepUntil = min(sleepUntil, due.millisecondsSince1970)
                    }
                }
            } catch {
                logger.warning("push queue not read", metadata: ["error": "\(error)"])
            }
            if claimed.isEmpty {
                await pause(until: sleepUntil)
                continue
            }
            do {
                let deliverer = PushDeliverer(signer: try await keyring.vapidSigner(), timeout: timeout, logger: logger)
                await withTaskGroup(of: Void.self) { group in
                    for job in claimed {
                        group.addTask {
                            let end = await self.deliver(job, with: deliverer)
                            do { try await self.store.endPush(job, end) } catch {
                                self.logger.warning("push not ended", metadata: ["error": "\(error)"])
                            }
                        }
                    }
                }
            } catch {
                logger.warning("push key not read", metadata: ["error": "\(error)"])
                await pause(until: sleepUntil)
            }
        }
    }

    /// Sleeps in short steps until `end` (milliseconds since 1970), a wake-up or shutdown.
    private func pause(until end: Int64) async {
        while now().millisecondsSince1970 < end, !stopping.load(ordering: .relaxed), !Task.isCancelled {
            if woken.exchange(false, ordering: .relaxed) { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// What became of one push.
    func deliver(_ job: PushJob, with deliverer: PushDeliverer) async -> PushEnd {
        if job.deleted || job.seen || job.muted { return .done }
        let elapsed = Duration.milliseconds(now().millisecondsSince1970 - job.queuedAt.millisecondsSince1970)
        guard elapsed < retries.giveUpAfter, let endpoint = URL(string: job.subscription.target.endpoint) else {
            return .done
        }
        let message: PushMessage
        do {
            message = try PushMessage(
                endpoint: endpoint,
                keys: try PushSubscriptionKeys(
                    p256dh: job.subscription.target.p256dh, auth: job.subscription.target.auth),
                payload: PushPayload.json(for: job),
                topic: PushTopic(conversation: PushPayload.conversationKey(of: job)))
        } catch {
            logger.warning("push not made", metadata: ["error": "\(error)"])
            return .done
        }
        switch await deliverer.deliver(message) {
        case .delivered, .rejected: return .done
        case .gone: return .subscriptionGone
        case .retry(let after, _):
            guard let wait = retries.delay(afterAttempt: job.attempts, elapsed: elapsed, retryAfter: after) else {
                return .done
            }
            return .retry(at: Timestamp(millisecondsSince1970: now().millisecondsSince1970 + wait.milliseconds))
        }
    }
}
