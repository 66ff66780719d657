import ChirpModels
import Synchronization
import Testing

@testable import ChirpServer

/// The block rules, written once above storage: the may-message rule and the follow rule
/// decide on block facts that both storages gather the same way.
@Suite("Block rules")
struct BlockRulesTests {
    static func bea(
        follows: Bool = true, wrote: Bool = true, blockedSender: Bool = false, blockedBySender: Bool = false
    ) -> RecipientFacts {
        RecipientFacts(
            id: 2, username: "Bea", followsSender: follows, hasWrittenToSender: wrote, blockedSender: blockedSender,
            blockedBySender: blockedBySender)
    }

    @Test func aBlockOverridesEveryPermissionAndOnlyTheBlockerLearnsOfIt() {
        #expect(MessageRules.refusal(sender: 1, to: Self.bea(), named: "Bea") == nil)
        let blockedByRecipient = MessageRules.refusal(sender: 1, to: Self.bea(blockedSender: true), named: "Bea")
        #expect(blockedByRecipient?.status == .forbidden && blockedByRecipient?.code == APIErrorCode.dmNotAllowed)
        #expect(
            blockedByRecipient?.message == APIError.dmNotAllowed("Bea").message, "the same answer as without permission"
        )
        let blockedBySender = MessageRules.refusal(
            sender: 1, to: Self.bea(follows: false, wrote: false, blockedBySender: true), named: "Bea")
        #expect(blockedBySender?.status == .forbidden && blockedBySender?.code == APIErrorCode.blocked)
        let both = MessageRules.refusal(
            sender: 1, to: Self.bea(blockedSender: true, blockedBySender: true), named: "Bea")
        #expect(both?.code == APIErrorCode.blocked, "the sender knows of their own block")
    }

    @Test func nobodyFollowsAcrossABlock() {
        #expect(
            SocialService.refusal(
                BlocksBetween(followerBlockedFollowee: false, followeeBlockedFollower: false), followee: "bea") == nil)
        #expect(
            SocialService.refusal(
                BlocksBetween(followerBlockedFollowee: true, followeeBlockedFollower: false), followee: "bea")?.code
                == "blocked")
        #expect(
            SocialService.refusal(
                BlocksBetween(followerBlockedFollowee: false, followeeBlockedFollower: true), followee: "bea")?.code
                == "blocked")
    }

    @Test(arguments: StorageKind.available)
    func bothStoragesGatherTheBlockFactsAndEndTheFollows(kind: StorageKind) async throws {
        try await kind.withStorage { storage in
            let ann = try await storage.account("ann", tokenHash: [1])
            let bea = try await storage.account("Bea", tokenHash: [2])
            try await storage.follow(ann, "bea")
            try await storage.follow(bea, "ann")
            let notice: @Sendable (String) throws -> String = { "{\"username\":\"\($0)\"}" }

            let blocked = try #require(
                try await storage.block(blockerId: ann.id, blockedKey: "bea", at: .now(), notice: notice))
            #expect(blocked.created)
            #expect(
                blocked.appended.map(\.userId) == [ann.id]
                    && blocked.appended.map(\.event.type) == [EventType.blockCreated])
            #expect(blocked.appended.first?.event.json == #"{"username":"Bea"}"#, "the name as registered")
            #expect(
                try await storage.block(blockerId: ann.id, blockedKey: "bea", at: .now(), notice: notice)?.created
                    == false)
            #expect(try await storage.block(blockerId: ann.id, blockedKey: "nobody", at: .now(), notice: notice) == nil)

            // Bea writing to ann: ann blocked her. Ann writing to Bea: ann blocked Bea.
            let toAnn = try #require(try await storage.recipientFacts(sender: bea.id, recipientKey: "ann"))
            #expect(
                toAnn.blockedSender && !toAnn.blockedBySender && !toAnn.followsSender, "the follows ended both ways")
            let toBea = try #require(try await storage.recipientFacts(sender: ann.id, recipientKey: "bea"))
            #expect(!toBea.blockedSender && toBea.blockedBySender && !toBea.followsSender)
            let asked = RecordingDecisions()
            _ = try await storage.sendMessage(
                NewMessage(sender: bea, recipient: "ann", clientMessageId: "b1", text: "hi", createdAt: .now()),
                decisions: asked)
            #expect(asked.decisiveQuestions == [.init(recipient: toAnn)], "a send gathers the same block facts")

            let seen = Mutex<[BlocksBetween]>([])
            _ = try await storage.follow(
                followerId: bea.id, followeeKey: "ann", at: .now(),
                permit: { blocks in seen.withLock { $0.append(blocks) } },
                notice: { _ in "{}" })
            #expect(
                seen.withLock { $0 } == [BlocksBetween(followerBlockedFollowee: false, followeeBlockedFollower: true)])

            #expect(
                try await storage.blocks(blockerId: ann.id, before: .max, limit: 10).map(\.item.username) == ["Bea"])
            let unblocked = try #require(
                try await storage.unblock(blockerId: ann.id, blockedKey: "bea", at: .now(), notice: notice))
            #expect(unblocked.created && unblocked.appended.map(\.event.type) == [EventType.blockDeleted])
            #expect(
                try await storage.unblock(blockerId: ann.id, blockedKey: "bea", at: .now(), notice: notice)?.created
                    == false)
            #expect(try await storage.blocks(blockerId: ann.id, before: .max, limit: 10).isEmpty)
        }
    }
}
