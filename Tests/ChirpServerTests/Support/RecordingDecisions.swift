import ChirpModels
import Synchronization

@testable import ChirpServer

/// `SendDecisions` for storage tests, with no API in them: inserts whatever has a recipient,
/// answers a taken client id with the stored message, and records what each storage asked.
final class RecordingDecisions: SendDecisions {
    struct Asked: Equatable {
        var recipient: RecipientFacts?
        var replayed: Message?
    }

    /// A send to nobody.
    struct NoRecipient: Error {}

    /// A send whose session its write found ended.
    struct SessionEnded: Error {}

    private let asked = Mutex<[Asked]>([])
    /// Refuse every send (and answer with the earlier message, when there is one).
    let refuseAll: Bool

    init(refuseAll: Bool = false) { self.refuseAll = refuseAll }

    var questions: [Asked] { asked.withLock { $0 } }

    /// The questions the outcome rests on: a `decide` asked again straight after (a storage may
    /// decide first from facts earlier batches read, and again from facts read afresh,
    /// `SendDecisions`) replaces the one before it.
    var decisiveQuestions: [Asked] {
        questions.reduce(into: []) { kept, question in
            if question.replayed == nil, let last = kept.last, last.replayed == nil { kept.removeLast() }
            kept.append(question)
        }
    }

    func decide(_ recipient: RecipientFacts?, for new: NewMessage, earlier: () throws -> Message?) throws
        -> SendDecision
    {
        asked.withLock { $0.append(Asked(recipient: recipient)) }
        guard recipient != nil else { throw NoRecipient() }
        guard refuseAll else { return .insert(.unchanged) }
        guard let existing = try earlier() else { throw NoRecipient() }
        return .replay(existing)
    }

    func replay(_ existing: Message, for new: NewMessage) throws -> Message {
        asked.withLock { $0.append(Asked(replayed: existing)) }
        return existing
    }

    func encode(_ message: Message) -> String {
        MessageJSON.encode(message)
    }

    func sessionEnded() -> any Error { SessionEnded() }
}
