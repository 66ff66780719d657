import ChirpModels
import Foundation

/// `group_members.final_group`: the group as a member last saw it before they left or were
/// removed, as the rules wrote it (`GroupDecisions.encode`, the Group of its events), so a
/// former member's conversation list and export show it as it was, never as it is now
/// (API.md part 3). Storage only reads it back into the model.
enum FormerGroupColumn {
    /// The stored group; for a member who left before the column existed (nothing stored), the
    /// group with no members and the title it has now.
    static func decode(_ stored: String?, fallback: Group) -> Group {
        if let stored, let group = try? JSONDecoder().decode(Group.self, from: Data(stored.utf8)) { return group }
        return Group(
            id: fallback.id, title: fallback.title, createdAt: fallback.createdAt, createdBy: fallback.createdBy,
            members: [])
    }
}
