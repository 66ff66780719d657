import ChirpModels
import Testing

/// The one Swift definition of a message's delivery states and of a tombstone.
@Suite("Message states and tombstones")
struct MessageStateTests {
    @Test func deliveryStatesOnlyMoveForwardButARetryLeavesFailed() {
        #expect(DeliveryState.pending.advanced(to: .sent) == .sent)
        #expect(DeliveryState.read.advanced(to: .delivered) == .read, "a stale update never undoes a newer one")
        #expect(DeliveryState.delivered.advanced(to: .failed) == .delivered)
        #expect(DeliveryState.failed.advanced(to: .pending) == .pending)
        #expect(DeliveryState.sent.advanced(to: .received) == .received)
    }

    @Test func aTombstoneKeepsItsPlaceAndLosesItsContent() {
        let message = Message(
            id: "7", clientMessageId: "c", sender: "ann", recipient: "bea", text: "hi",
            createdAt: Timestamp(millisecondsSince1970: 5),
            readByRecipient: true, media: [], replyTo: "6", reactions: [MessageReaction(emoji: "👍", users: ["bea"])])
        let unsent = message.tombstone()
        #expect(
            unsent.text.isEmpty && unsent.reactions.isEmpty && unsent.media.isEmpty && unsent.deleted
                && !unsent.removedByOperators)
        #expect(
            unsent.id == "7" && unsent.sender == "ann" && unsent.createdAt == message.createdAt && unsent.replyTo == "6"
        )
        #expect(unsent.tombstoneNote == "message unsent")
        #expect(!message.isTombstone() && unsent.isTombstone() && !unsent.isTombstone(byOperators: true))

        let takenDown = unsent.tombstone(byOperators: true)
        #expect(takenDown.removedByOperators && takenDown.isTombstone(byOperators: true))
        #expect(takenDown.tombstoneNote == "removed by the operators")
        #expect(takenDown.tombstone().removedByOperators, "the operators' mark stays once set")
    }
}
