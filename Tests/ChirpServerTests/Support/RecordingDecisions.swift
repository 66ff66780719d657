@testable import ChirpServer
import ChirpModels
import Synchronization

/// `SendDecisions` for storage tests, with no API in them: inserts whatever has a recipient,
/// answers a taken client id with the stored message, and records what each storage asked.
final class RecordingDecisions: SendDecisions {
    struct Asked: Equatable {
        var recipient: RecipientFacts?
        var replayed: Message?
    }

    /// A send to nobody.
    struct NoRecipient: Error {}

    private let asked = Mutex<[Asked]>([])
    /// Refuse every send (and answer with the earlier message, when there is one).
    let refuseAll: Bool

    init(refuseAll: Bool = false) { self.refuseAll = refuseAll }

    var questions: [Asked] { asked.withLock { $0 } }

    /// The questions without a repeat of the one just before (a storage may ask again with the
    /// same facts, `SendDecisions`).
    var distinctQuestions: [Asked] {
        questions.reduce(into: []) { kept, question in if kept.last != question { kept.append(question) } }
    }

    func decide(_ recipient: RecipientFacts?, for new: NewMessage, earlier: () throws -> Message?) throws -> SendDecision {
        asked.withLock { $0.append(Asked(recipient: recipient)) }
        guard recipient != nil else { throw NoRecipient() }
        guard refuseAll else { return .insert }
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
}
