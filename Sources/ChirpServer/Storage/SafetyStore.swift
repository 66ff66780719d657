import ChirpModels
import Foundation

/// Blocks and reports.
protocol SafetyStore: Sendable {
    /// Blocks the user with `blockedKey` for `blockerId`: removes any follow between them both
    /// ways (with the counts) and appends `block.created` (data `notice(blocked's username)`)
    /// to the blocker's stream. Not created when the block already existed; nil when there is
    /// no such user.
    func block(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>?
    /// Removes the block and appends `block.deleted` to the blocker's stream; not created when
    /// there was no block, nil when there is no such user.
    func unblock(
        blockerId: Int64, blockedKey: String, at: Timestamp, notice: @escaping @Sendable (String) throws -> String
    ) async throws -> WriteOutcome<Void>?
    /// The users `blockerId` blocked, newest block first (cursor: the block's id).
    func blocks(blockerId: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<User>]
    /// Files a report, with a copy of the message it names as it is now.
    func fileReport(_ new: NewReport) async throws -> ReportOutcome
    /// The envelope of encrypted message `messageId`, if a report by `reporter` about the user
    /// `reportedKey` names may name it, with what checking a report needs; nil otherwise.
    func reportedEnvelope(messageId: Int64, reporter: Int64, reportedKey: String) async throws -> ReportedEnvelope?
    /// Reports filed at or after `since`, oldest first, at most `limit`.
    func reports(since: Timestamp, limit: Int) async throws -> [ReportRecord]
    /// Deletes up to `limit` of the reports filed before `cutoff`; returns how many went.
    func deleteReports(filedBefore cutoff: Timestamp, limit: Int) async throws -> Int
}

/// A report to file.
struct NewReport: Sendable {
    var reporter: Viewer
    var reportedKey: String
    /// A message of the conversation between the reporter and the reported user.
    var messageId: Int64?
    var reason: ReportReason
    var note: String?
    var createdAt: Timestamp
    /// An encrypted message's text, from a plaintext the report proved (`ReportVerifier`);
    /// otherwise the stored text is kept.
    var messageText: String? = nil
}

/// A reported encrypted message and what checking its report needs (API.md part 4).
struct ReportedEnvelope: Sendable {
    var message: Message
    var envelope: Envelope
    var reporterId: Int64
    var reportedId: Int64
    /// The identity key of the device that sealed it (nil: that device is gone).
    var senderIdentityKey: String?
}

/// What filing a report did.
enum ReportOutcome: Sendable, Equatable {
    case noSuchUser
    /// The message is not one of the reporter's conversation with the reported user.
    case noSuchMessage
    case filed(id: Int64)
}

/// A stored report, as operators read it: who reported whom, why, and the message as it was.
public struct ReportRecord: Sendable, Hashable {
    public var id: Int64
    public var createdAt: Timestamp
    public var reporter: String
    public var reported: String
    public var reason: String
    public var note: String?
    public var messageId: Int64?
    /// The reported message's sender, text and media ids when the report was filed.
    public var messageSender: String?
    public var messageText: String?
    public var messageMediaIds: [String]
}

extension ReportRecord {
    /// Media ids as stored in a report row (a JSON array of strings).
    static func encodeMediaIds(_ ids: [String]) -> String {
        (try? String(decoding: JSONEncoder().encode(ids), as: UTF8.self)) ?? "[]"
    }

    static func decodeMediaIds(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
