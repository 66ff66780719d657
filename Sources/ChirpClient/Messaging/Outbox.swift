import ChirpModels
import ChirpNetworking
import Foundation
import Logging

/// Why the outbox could not do what was asked.
public enum OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `retry` named a message that is not in the `failed` state.
    case notFailed(String)
    /// The text cannot be sent (empty or too long); nothing was stored.
    case invalidText(String)
    /// An attachment cannot be sent (not a readable file, more than 4); nothing was stored.
    case invalidAttachment(String)
    /// The peer's account was deleted (`deleted-ID`): its conversation is read-only.
    case deletedAccount(String)

    public var description: String {
        switch self {
        case .notFailed(let id):
            "no failed message \(id): only failed messages can be retried (see chirp messages USER)"
        case .invalidText(let reason): reason
        case .invalidAttachment(let reason): reason
        case .deletedAccount(let peer):
            "\(peer)'s account was deleted: the conversation can be read, but nothing can be sent to it."
        }
    }
}

/// What one outbox drain did.
public struct OutboxReport: Sendable, Equatable {
    /// Messages the server acknowledged.
    public var sent: [LocalMessage] = []
    /// Messages the server refused (now `failed`, with the reason).
    public var failed: [LocalMessage] = []
    /// Messages still waiting because the server could not be reached or stayed busy.
    public var stillPending: Int = 0
    /// The last error that left messages waiting, if any.
    public var blockedBy: NetworkError?
    /// Why the server refused queued actions (reactions, edits, unsends), which were dropped.
    public var refusedActions: [String] = []

    /// Whether the outbox is empty now.
    public var isDrained: Bool { stillPending == 0 }
}

/// The outbox: a send is stored as `pending` first (so it shows at once and survives a crash),
/// then sent by a drain in the background: one ordered queue per conversation (queues run in
/// parallel, messages within one strictly in the order written), each message with its client
/// id, so the server stores it once however many attempts reach it.
///
/// Drains are a single flight (`SingleFlight`): any number of triggers (an enqueue, the sync
/// engine going live, a CLI command, logout, a retry) run at most one drain at a time, and a
/// trigger during a drain gets one more pass after it, so nothing enqueued is left behind.
///
/// **Who retries.** The network layer does, and only it: each send carries `sendRetries`, and
/// `APIClient` retries transient failures (no connection, timeouts, 429, 5xx) with backoff and
/// jitter, honouring `Retry-After`, which the outbox could not see. A drain is one pass: a
/// message that still cannot get through stays `pending` with those after it in its queue, and
/// the next trigger sends them. (The outbox used to add rounds of its own around the network
/// layer's, multiplying the attempts and the waits.) Any other 4xx marks the message `failed`
/// with the server's reason, and the queue goes on; `retry(_:)` puts it back.
final class Outbox: Sendable {
    /// How one send is retried by the network layer: patience for a busy server (429, 5xx,
    /// timeouts: eleven attempts, waits doubling from 250 ms to 4 s), two quick retries when no
    /// connection can be made at all (an offline client gives up within about half a second
    /// and the message waits for the next trigger).
    static let sendRetries = RetryPolicy(
        maxRetries: 10, baseDelay: .milliseconds(250), maxDelay: .seconds(4), jitter: 0.5, unreachableRetries: 2)

    let ledger: LocalLedger
    let api: ChirpAPIClient
    let retries: RetryPolicy
    private let flight: SingleFlight<OutboxReport>
    /// Refusals of queued actions not yet taken by `takeRefusedActions()`.
    private let refusals = ActionRefusals()

    /// An outbox writing through `ledger` and sending with `api`, each send retried by
    /// `retries`; failures the user does not see go to `logger`.
    init(
        ledger: LocalLedger, api: ChirpAPIClient, retries: RetryPolicy = Outbox.sendRetries,
        logger: Logger = Logger(label: "chirp.outbox"),
        uploader: MediaUploader? = nil
    ) {
        self.ledger = ledger
        self.api = api
        self.retries = retries
        let pass = OutboxPass(ledger: ledger, api: api, retries: retries, logger: logger, uploader: uploader)
        let refusals = refusals
        flight = SingleFlight {
            let report = try await pass.run()
            refusals.add(report.refusedActions)
            return report
        }
    }

    /// Stores a message to `recipient` as pending and starts a drain; returns the stored row
    /// (before any network call) and the drain that will send it.
    /// `replyTo` is the server id of the message answered, or its local id while it is pending.
    func enqueue(
        to recipient: String, text: String, attachments: [URL] = [], replyTo: String? = nil
    ) async throws -> (message: LocalMessage, drain: Task<OutboxReport, any Error>) {
        guard !Validation.isDeletedAccountName(recipient) else { throw OutboxError.deletedAccount(recipient) }
        let checked: String
        if !attachments.isEmpty, text.trimmingSurroundingWhitespace().isEmpty {
            checked = ""
        } else {
            do {
                checked = try Validation.messageText(text)
            } catch {
                throw OutboxError.invalidText(error.message)
            }
        }
        guard attachments.count <= Media.maxPerMessage else {
            throw OutboxError.invalidAttachment("A message carries at most \(Media.maxPerMessage) attachments.")
        }
        let message = try await ledger.addPending(
            to: recipient, text: checked, attachments: attachments, replyTo: replyTo)
        return (message, await drain())
    }

    /// Starts a drain, or returns the pass queued after the current one: awaiting its value
    /// waits until everything pending now has been tried.
    func drain() async -> Task<OutboxReport, any Error> {
        await flight.trigger()
    }

    /// Why the server refused actions since the last call (whichever drain sent them).
    func takeRefusedActions() -> [String] {
        refusals.take()
    }

    /// Puts a failed message back in the queue (at its old place) and drains.
    func retry(_ id: String) async throws -> OutboxReport {
        _ = try await ledger.requeue(id)
        return try await drain().value
    }
}
