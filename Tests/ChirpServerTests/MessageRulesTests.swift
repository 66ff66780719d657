import ChirpModels
import Synchronization
import Testing

@testable import ChirpServer

/// The rules of direct messages, decided in one place (`MessageRules`) for both storages:
/// who may message whom, and when a used client id is a retry or a conflict.
@Suite("Message rules")
struct MessageRulesTests {
    static let ann = Viewer(id: 1, username: "ann", tokenHash: [1])

    static func new(to recipient: String = "Bea", id: String = "c-1", text: String = "hi") -> NewMessage {
        NewMessage(
            sender: ann, recipient: recipient, clientMessageId: id, text: text,
            createdAt: Timestamp(millisecondsSince1970: 0))
    }

    static func bea(follows: Bool, hasWritten: Bool) -> RecipientFacts {
        RecipientFacts(id: 2, username: "Bea", followsSender: follows, hasWrittenToSender: hasWritten)
    }

    static func stored(to recipient: String = "Bea", text: String = "hi") -> Message {
        Message(
            id: "7", clientMessageId: "c-1", sender: "ann", recipient: recipient, text: text,
            createdAt: Timestamp(millisecondsSince1970: 0), readByRecipient: false)
    }

    /// Counts how often a decision asked for the earlier message.
    final class EarlierLookups: Sendable {
        let count = Mutex(0)
        let message: Message?
        init(_ message: Message?) { self.message = message }
        func lookUp() -> Message? {
            count.withLock { $0 += 1 }
            return message
        }
    }

    @Test(arguments: [
        (false, false, APIErrorCode.dmNotAllowed as String?),
        (true, false, nil),
        (false, true, nil),
        (true, true, nil),
    ])
    func theRecipientMustFollowTheSenderOrHaveWrittenToThem(follows: Bool, hasWritten: Bool, refusal: String?) throws {
        let lookups = EarlierLookups(nil)
        let facts = Self.bea(follows: follows, hasWritten: hasWritten)
        if let refusal {
            let error = #expect(throws: APIError.self) {
                try MessageRules().decide(facts, for: Self.new(), earlier: lookups.lookUp)
            }
            #expect(error?.status == .forbidden && error?.code == refusal)
            #expect(lookups.count.withLock { $0 } == 1, "a refused send looks for a retry")
        } else {
            #expect(try MessageRules().decide(facts, for: Self.new(), earlier: lookups.lookUp) == .insert(.unchanged))
            #expect(lookups.count.withLock { $0 } == 0, "an allowed send reads nothing more: the insert finds a retry")
        }
        #expect((MessageRules.refusal(sender: Self.ann.id, to: facts, named: "Bea") == nil) == (refusal == nil))
    }

    /// A recipient who takes requests from everyone gets what part 1's rule refuses as a
    /// request; an accepted request is ordinary; a reply to a pending request accepts it.
    @Test func requestsOpenContinueAndAreAccepted() throws {
        func decide(_ change: (inout RecipientFacts) -> Void) throws -> SendDecision {
            var facts = Self.bea(follows: false, hasWritten: false)
            change(&facts)
            return try MessageRules().decide(facts, for: Self.new(), earlier: { nil })
        }
        #expect(try decide { $0.takesRequests = true } == .insert(.open))
        #expect(
            try decide {
                $0.takesRequests = true
                $0.request = .pending
            } == .insert(.unchanged))
        #expect(try decide { $0.request = .accepted } == .insert(.unchanged), "accepted holds whatever the setting")
        #expect(
            try decide {
                $0.hasWrittenToSender = true
                $0.senderHasPendingRequest = true
            } == .insert(.accept))
        #expect(
            try decide {
                $0.takesRequests = true
                $0.followsSender = true
            } == .insert(.unchanged), "part 1 first")
        for refused: (inout RecipientFacts) -> Void in [
            { $0.request = .pending },
            {
                $0.takesRequests = true
                $0.blockedSender = true
            },
        ] {
            let error = #expect(throws: APIError.self) { try decide(refused) }
            #expect(error?.code == APIErrorCode.dmNotAllowed)
        }
        var pending = Self.bea(follows: false, hasWritten: false)
        pending.takesRequests = true
        #expect(
            !MessageRules.typingReaches(try MessageRules.permission(sender: Self.ann.id, to: pending, named: "Bea")))
        pending.hasWrittenToSender = true
        pending.senderHasPendingRequest = true
        #expect(
            !MessageRules.typingReaches(try MessageRules.permission(sender: Self.ann.id, to: pending, named: "Bea")))
        #expect(
            MessageRules.typingReaches(
                try MessageRules.permission(
                    sender: Self.ann.id, to: Self.bea(follows: true, hasWritten: false), named: "Bea")))
    }

    @Test func nobodyMessagesThemselvesNorSomeoneWhoDoesNotExist() {
        let me = RecipientFacts(id: Self.ann.id, username: "ann", followsSender: true, hasWrittenToSender: true)
        let toSelf = #expect(throws: APIError.self) {
            try MessageRules().decide(me, for: Self.new(to: "ANN"), earlier: { nil })
        }
        #expect(toSelf?.status == .unprocessableContent && toSelf?.code == APIErrorCode.cannotMessageSelf)
        let nobody = #expect(throws: APIError.self) {
            try MessageRules().decide(nil, for: Self.new(to: "nobody"), earlier: { nil })
        }
        #expect(nobody?.status == .notFound && nobody?.code == APIErrorCode.userNotFound)
    }

    @Test func aRefusedRetryOfAStoredMessageIsAnsweredWithIt() throws {
        // Bea unfollowed since: sending anew is refused, the retry of what was sent is not.
        let refusedNow = Self.bea(follows: false, hasWritten: false)
        let decision = try MessageRules().decide(refusedNow, for: Self.new(to: "bea"), earlier: { Self.stored() })
        #expect(decision == .replay(Self.stored()), "the recipient's name is compared ignoring case")
    }

    @Test(arguments: [("Bea", "other text"), ("Cy", "hi")])
    func aClientIdUsedForAnotherMessageIsAConflict(recipient: String, text: String) {
        let existing = Self.stored()
        let new = Self.new(to: recipient, text: text)
        let onInsert = #expect(throws: APIError.self) { try MessageRules().replay(existing, for: new) }
        #expect(onInsert?.status == .conflict && onInsert?.code == APIErrorCode.clientIdReused)
        let onRefusal = #expect(throws: APIError.self) {
            try MessageRules().decide(Self.bea(follows: false, hasWritten: false), for: new, earlier: { existing })
        }
        #expect(onRefusal?.status == .conflict)
        #expect(!MessageRules.isRetry(existing, of: new))
    }

    @Test func theSameMessageAgainIsARetry() throws {
        #expect(try MessageRules().replay(Self.stored(), for: Self.new(to: "BEA")) == Self.stored())
        #expect(MessageRules.isRetry(Self.stored(), of: Self.new()))
    }

    @Test func aMessageEventIsTheMessageAsTheAPIWritesIt() throws {
        let message = Self.stored(text: "\"quoted\"")
        #expect(MessageRules().encode(message) == (try APIJSON.encode(message)))
    }
}
