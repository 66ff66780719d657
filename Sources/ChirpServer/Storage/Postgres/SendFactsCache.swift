import Synchronization

/// What earlier send batches learned, so that the next one can skip reading its facts: each
/// (sender, recipient key)'s `RecipientFacts` as stored, and the message ids the last batch
/// reserved for the next. `chirp_send_batch` checks every fact again under its locks, so a
/// stale entry costs one more round trip, never a wrong decision.
///
/// Reserved ids are used only while fresh (`idLifetime`): ids order messages, and an id held
/// back longer could place a message behind one another instance stored after it.
final class SendFactsCache: Sendable {
    private struct Key: Hashable {
        var sender: Int64
        var recipientKey: String
    }

    private struct State {
        var facts: [Key: RecipientFacts] = [:]
        var ids: [Int64] = []
        var idsReservedAt = ContinuousClock.now
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let idLifetime: Duration

    init(capacity: Int = 65_536, idLifetime: Duration = .milliseconds(50)) {
        self.capacity = capacity
        self.idLifetime = idLifetime
    }

    /// The stored facts of every send, in order, and one fresh reserved id each (taken), or nil
    /// when any is missing.
    func take(for sends: [PendingSend]) -> (facts: [RecipientFacts], ids: [Int64])? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard state.ids.count >= sends.count, now - state.idsReservedAt < idLifetime else { return nil }
            var facts: [RecipientFacts] = []
            facts.reserveCapacity(sends.count)
            for send in sends {
                guard let known = state.facts[Key(sender: send.new.sender.id, recipientKey: send.new.recipientKey)]
                else { return nil }
                facts.append(known)
            }
            let ids = Array(state.ids.prefix(sends.count))
            state.ids.removeFirst(sends.count)
            return (facts, ids)
        }
    }

    /// Remembers the stored facts of each send's recipient (nil: none, nothing kept).
    func remember(_ facts: [RecipientFacts?], of sends: [PendingSend]) {
        state.withLock { state in
            // Full: start over rather than track recency; the next batches refill it.
            if state.facts.count + sends.count > capacity { state.facts.removeAll(keepingCapacity: true) }
            for (send, known) in zip(sends, facts) {
                guard let known else { continue }
                state.facts[Key(sender: send.new.sender.id, recipientKey: send.new.recipientKey)] = known
            }
        }
    }

    /// Messages were stored from each sender (whose key is `senderKey`) to each recipient:
    /// each recipient has now been written to by that sender.
    func recordSent(_ sent: [(sender: Int64, senderKey: String, recipient: Int64)]) {
        state.withLock { state in
            for message in sent {
                state.facts[Key(sender: message.recipient, recipientKey: message.senderKey)]?.hasWrittenToSender = true
            }
        }
    }

    /// A batch opened or accepted requests between these users: what is known of each pair,
    /// either way, is read again.
    func forget(_ pairs: [(sender: Int64, recipientKey: String, recipient: Int64, senderKey: String)]) {
        guard !pairs.isEmpty else { return }
        state.withLock { state in
            for pair in pairs {
                state.facts[Key(sender: pair.sender, recipientKey: pair.recipientKey)] = nil
                state.facts[Key(sender: pair.recipient, recipientKey: pair.senderKey)] = nil
            }
        }
    }

    /// Ids reserved for the next batch, ascending; replaces any left over.
    func reserve(_ ids: [Int64]) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.ids = ids.sorted()
            state.idsReservedAt = now
        }
    }
}
