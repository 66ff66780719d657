import ChirpModels
import ChirpPush
import Foundation

/// A push's payload (API.md part 4, `PushNotification`) for a claimed push, at most 3 KB: the
/// text only when the subscription allows previews, cut to fit.
enum PushPayload {
    /// The longest text a payload carries, in UTF-8 bytes: with the rest of it, under 3 KB.
    static let maxTextBytes = 2_048

    static func json(for job: PushJob) throws -> Data {
        let conversation: PushNotification.Conversation =
            job.groupId.map { .group(String($0)) } ?? .direct(job.sender)
        let text = job.subscription.target.preview && !job.encrypted ? cut(job.text) : nil
        let notification = PushNotification(
            conversation: conversation, sender: job.sender, messageId: String(job.messageId), text: text)
        return try APIJSON.encoder().encode(notification)
    }

    /// The conversation a push is about, as its topic names it (`PushTopic`): its key as the
    /// recipient's clients spell it (`ConversationKey`).
    static func conversationKey(of job: PushJob) -> String {
        job.groupId.map { ConversationKey.group(String($0)) } ?? job.sender.lowercased()
    }

    /// `text`, or its start and "…" when it is longer than `maxTextBytes`.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > maxTextBytes else { return text }
        var kept = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > maxTextBytes - 3 { break }
            kept.append(character)
        }
        return kept + "…"
    }
}
