import ChirpModels
import ChirpNetworking
import Foundation

/// Why the outbox could not do what was asked.
public enum OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `retry` named a message that is not in the `failed` state.
    case notFailed(String)
    /// The text cannot be sent (empty or too long); nothing was stored.
    case invalidText(String)

    public var description: String {
        switch self {
        case .notFailed(let id): "no failed message \(id): only failed messages can be retried (see chirp messages USER)"
        case .invalidText(let reason): reason
        }
    }
}

/// What one `Outbox.flush()` did.
public struct OutboxReport: Sendable, Equatable {
    /// Messages the server acknowledged.
    public var sent: [LocalMessage] = []
    /// Messages the server refused (now `failed`, with the reason).
    public var failed: [LocalMessage] = []
    /// Messages still waiting because the server could not be reached or stayed busy.
    public var stillPending: Int = 0
    /// The last error that left messages waiting, if any.
    public var blockedBy: NetworkError?

    /// Whether the outbox is empty now.
    public var isDrained: Bool { stillPending == 0 }
}

/// The outbox: a send is stored as `pending` first (so it shows at once and survives a crash),
/// then sent by `flush()` with its client id, one ordered queue per conversation (queues run in
/// parallel, messages within one strictly in the order written).
///
/// A transient failure (no connection, timeout, 429, 5xx) is retried with the same client id,
/// so the server stores the message once however many attempts reach it; when the server stays
/// unreachable the rest of that queue waits for the next flush. Any other 4xx marks the message
/// `failed` with the server's reason, and the queue goes on; `retry(_:)` puts it back.
public final class Outbox: Sendable {
    /// How long a flush keeps trying when the server fails transiently.
    public struct Persistence: Sendable {
        /// Rounds per message after the `APIClient`'s own retries, for 429/5xx/timeouts.
        public var busyRounds: Int
        /// Rounds per message when no connection can be made at all.
        public var unreachableRounds: Int
        /// The wait before the second round, doubled each round up to `maxDelay`.
        public var baseDelay: Duration
        public var maxDelay: Duration
        /// The network layer's retries within one round (it honours `Retry-After`).
        public var attemptPolicy: RetryPolicy

        /// Creates a setting.
        public init(
            busyRounds: Int = 10, unreachableRounds: Int = 1, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(4),
            attemptPolicy: RetryPolicy = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(100), maxDelay: .seconds(2))
        ) {
            self.attemptPolicy = attemptPolicy
            self.busyRounds = busyRounds
            self.unreachableRounds = unreachableRounds
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
        }
    }

    let ledger: MessageLedger
    let api: ChirpAPIClient
    let clock: ClientClock
    let persistence: Persistence

    /// An outbox writing through `ledger` and sending with `api`.
    public init(ledger: MessageLedger, api: ChirpAPIClient, clock: ClientClock = .live, persistence: Persistence = .init()) {
        self.ledger = ledger
        self.api = api
        self.clock = clock
        self.persistence = persistence
    }

    /// Stores a message to `recipient` as pending (it is not sent yet: call `flush()`).
    public func enqueue(to recipient: String, text: String) async throws -> LocalMessage {
        let checked: String
        do {
            checked = try Validation.messageText(text)
        } catch {
            throw OutboxError.invalidText(error.message)
        }
        return try await ledger.addPending(to: recipient, text: checked)
    }

    /// Puts a failed message back in the queue (at its old place) and flushes.
    @discardableResult
    public func retry(_ id: String) async throws -> OutboxReport {
        _ = try await ledger.requeue(id)
        return try await flush()
    }

    /// Sends every pending message, queue by queue; returns what happened.
    public func flush() async throws -> OutboxReport {
        let pending = try await ledger.database.pendingMessages()
        var queues: [String: [LocalMessage]] = [:]
        var order: [String] = []
        for message in pending {
            if queues[message.peer] == nil { order.append(message.peer) }
            queues[message.peer, default: []].append(message)
        }
        return try await withThrowingTaskGroup(of: OutboxReport.self) { group in
            for peer in order {
                let queue = queues[peer]!
                group.addTask { try await self.drain(queue) }
            }
            var total = OutboxReport()
            for try await report in group {
                total.sent += report.sent
                total.failed += report.failed
                total.stillPending += report.stillPending
                total.blockedBy = total.blockedBy ?? report.blockedBy
            }
            return total
        }
    }

    /// Sends one conversation's queue in order; stops at the first message that cannot get
    /// through, leaving it and those after it pending.
    private func drain(_ queue: [LocalMessage]) async throws -> OutboxReport {
        var report = OutboxReport()
        for (index, message) in queue.enumerated() {
            switch try await deliver(message) {
            case .sent(let stored): report.sent.append(stored)
            case .failed(let stored): report.failed.append(stored)
            case .blocked(let error):
                report.stillPending = queue.count - index
                report.blockedBy = error
                return report
            }
        }
        return report
    }

    private enum Outcome {
        case sent(LocalMessage)
        case failed(LocalMessage)
        case blocked(NetworkError)
    }

    private func deliver(_ message: LocalMessage) async throws -> Outcome {
        var endpoint = ChirpEndpoints.SendMessage(to: message.recipient, clientMessageId: message.clientMessageId, text: message.text)
        endpoint.retryPolicy = persistence.attemptPolicy
        var round = 0
        while true {
            let reply: Message
            do {
                reply = try await api.send(endpoint)
            } catch {
                if error == .cancelled || error == .offline { return .blocked(error) }
                guard error.isTransient else {
                    let reason: String
                    if case .server(_, _, let text, _) = error { reason = text } else { reason = error.description }
                    try await ledger.markFailed(message.id, reason: reason)
                    var failed = message
                    failed.state = .failed
                    failed.failure = reason
                    return .failed(failed)
                }
                let limit = error.status == nil && error != .timeout ? persistence.unreachableRounds : persistence.busyRounds
                round += 1
                if round >= limit { return .blocked(error) }
                let delay = min(persistence.baseDelay * Int(1 << min(round - 1, 20)), persistence.maxDelay)
                do { try await clock.sleep(delay) } catch { return .blocked(.cancelled) }
                continue
            }
            try await ledger.record(reply, state: .sent)
            var stored = LocalMessage(reply, viewer: ledger.username)
            stored.state = .sent
            return .sent(stored)
        }
    }
}
