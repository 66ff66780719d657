import Foundation

/// The new-group form: the title, then the people this user may message, the picked ones
/// checked.
enum NewGroupScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        let form = state.newGroup
        canvas.text("New group", x: 1, y: rows.lowerBound, style: theme.title)
        canvas.text("Title:", x: 1, y: rows.lowerBound + 2)
        canvas.frame.fill(row: rows.lowerBound + 2, from: 10, to: 50, style: theme.input)
        canvas.text(
            form.title.text + (form.choosingMembers ? "" : "▏"), x: 10, y: rows.lowerBound + 2, style: theme.input,
            maxX: 50)
        let picked = form.picked.isEmpty ? "none yet" : form.picked.joined(separator: ", ")
        canvas.text(
            "Members (\(form.picked.count) picked: \(picked))", x: 1, y: rows.lowerBound + 4,
            style: form.choosingMembers ? theme.accent : theme.base, maxX: canvas.width - 1)
        guard !form.candidates.isEmpty else {
            canvas.text(
                "No one to add yet: people who follow you, or whom you have messaged, can be.", x: 1,
                y: rows.lowerBound + 6,
                style: theme.muted, maxX: canvas.width - 1)
            return
        }
        let selected = form.choosingMembers ? form.selected : nil
        canvas.list(form.candidates, selected: selected, in: (rows.lowerBound + 5)..<rows.upperBound) {
            canvas, name, y, x, _, base in
            canvas.frame.draw(
                (form.picked.contains(name) ? "[x] " : "[ ] ") + name, x: x, y: y, style: base, maxX: canvas.width - 1)
        }
    }
}

extension NewGroupScreen {
    /// The open group's members: who, their role, and whether it is you.
    static func drawMembers(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        guard let group = state.group else {
            canvas.text("Loading…", x: 1, y: rows.lowerBound, style: theme.muted)
            return
        }
        let left = group.left ? " · you are no longer in it" : ""
        canvas.text(
            "\(group.title) · \(group.members.count) members\(left)", x: 1, y: rows.lowerBound, style: theme.title,
            maxX: canvas.width - 1)
        canvas.list(group.members, selected: state.selectedMember, in: (rows.lowerBound + 2)..<rows.upperBound) {
            canvas, member, y, x, selected, base in
            let you = member.user.username.lowercased() == state.username?.lowercased() ? " (you)" : ""
            let end = canvas.frame.draw(member.user.username + you, x: x, y: y, style: selected ? base : theme.accent)
            canvas.frame.draw(
                member.role == .admin ? "admin" : "member", x: max(end + 2, 24), y: y,
                style: selected ? base : theme.muted)
        }
    }
}
