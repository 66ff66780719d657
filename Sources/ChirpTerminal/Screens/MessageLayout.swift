import ChirpClient
import ChirpModels

/// The lines of one message in the history: the header (who, when, delivery mark, "edited"),
/// the quoted line it answers, its text (or its tombstone's note: "message unsent", "removed by
/// the operators"; or, encrypted and not opened here, "could not be verified"), its attachments,
/// its reactions.
struct MessageLayout {
    typealias Line = (text: String, style: CellStyle)

    let state: AppState
    let theme: Theme
    /// Columns for the text.
    let width: Int

    func lines(for row: LocalMessage, selected: Bool) -> [Line] {
        let me = state.username?.lowercased() ?? ""
        let mine = row.sender.lowercased() == me
        let body = selected ? theme.selection : (mine ? theme.mine : theme.theirs)
        let quiet = selected ? theme.selection : theme.muted
        var header = "\(mine ? "you" : row.sender) · \(Canvas.clock(row.createdAt))"
        if row.editedAt != nil, !row.deleted { header += " · edited" }
        let mark = mine ? ConversationScreen.mark(row) : ""
        if !mark.isEmpty { header += "  " + mark }
        let headerStyle =
            selected ? theme.selection : row.state == .failed ? theme.error : (mine ? theme.mine : theme.accent)
        var lines: [Line] = [((selected ? "▸ " : "") + header, headerStyle)]
        if row.deleted {
            lines.append(("  " + row.tombstoneNote, quiet))
            return lines
        }
        // An encrypted message that did not open shows why, never a text.
        if let notice = row.verification?.notice {
            lines.append(("  🔒 " + notice, selected ? theme.selection : theme.error))
            return lines
        }
        if let replyTo = row.replyTo {
            lines.append((TextWidth.prefix("  ↪ " + quote(replyTo), fitting: width), quiet))
        }
        for line in Canvas.wrap(row.text, width: width - 2) where !(line.isEmpty && row.text.isEmpty) {
            lines.append(("  " + line, body))
        }
        for attachment in row.attachments {
            let file = AttachmentFile.summary(
                name: attachment.name, contentType: attachment.contentType, size: attachment.size)
            if attachment.mediaId == nil {
                lines.append(("  📎 " + file + " · to upload", quiet))
            } else {
                lines.append(("  📎 " + file, body))
            }
        }
        if !row.reactions.isEmpty {
            lines.append(("  " + row.reactions.map { "\($0.emoji) \($0.count)" }.joined(separator: "  "), quiet))
        }
        return lines
    }

    /// "sender: first line" of the message a reply answers.
    func quote(_ id: String) -> String {
        guard let original = state.message(id) else { return "an earlier message" }
        let who = original.sender.lowercased() == state.username?.lowercased() ? "you" : original.sender
        if original.deleted { return "\(who): \(original.tombstoneNote)" }
        let first =
            original.text.split(separator: "\n").first.map(String.init) ?? (original.attachments.first?.name ?? "")
        return "\(who): \(first)"
    }
}
