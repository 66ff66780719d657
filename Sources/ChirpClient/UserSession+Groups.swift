import ChirpModels
import ChirpNetworking
import ChirpPersistence
import Foundation

/// Why a group call could not be made; nothing was sent.
public enum GroupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The title or the member list breaks a rule.
    case invalid(String)
    /// This user left the group or was removed: it can be read, nothing more sent.
    case left(String)

    public var description: String {
        switch self {
        case .invalid(let reason): reason
        case .left(let id):
            "you are no longer in group \(id): its messages can be read, but nothing more can be sent to it"
        }
    }
}

/// Group conversations (API.md part 3). A group's conversation is keyed `g:ID`
/// (`ConversationKey.group`), and every per-conversation call takes that key as its peer:
/// `enqueue`/`send` (the message waits in the outbox and survives a restart), `messages`,
/// `react`/`edit`/`unsend` (waiting behind their message), `markRead`, `typing`, `pin`/`mute`,
/// `accept`/`decline` (a group request). Creating and managing a group goes to the server at
/// once: creating is idempotent by a client id, so a retried create makes one group.
extension UserSession {
    /// Creates a group of this user (its first admin) and `members` titled `title`, and stores
    /// it (its conversation shows before its first message). Pass the same `clientGroupId` to
    /// retry a create safely. Throws `GroupError.invalid` for a bad title or no members.
    @discardableResult
    public func createGroup(_ title: String, members: [String], clientGroupId: String = UUID().uuidString) async throws
        -> LocalGroup
    {
        let checked: String
        do { checked = try Validation.groupTitle(title) } catch { throw GroupError.invalid(error.message) }
        let others = members.filter { $0.lowercased() != username.lowercased() }
        guard !others.isEmpty else { throw GroupError.invalid("A group needs at least one other member.") }
        var endpoint = ChirpEndpoints.CreateGroup(clientGroupId: clientGroupId, title: checked, members: others)
        endpoint.retryPolicy = Outbox.sendRetries
        let group = try await api.send(endpoint)
        try await ledger.store(group: group)
        return LocalGroup(group)
    }

    /// Group `id` as stored here; with `refresh`, read from the server first (a group this
    /// user is no longer in stays as it was, marked left).
    public func group(_ id: String, refresh: Bool) async throws -> LocalGroup? {
        if refresh {
            do {
                try await ledger.store(group: try await api.send(ChirpEndpoints.GetGroup(id)))
            } catch let error as NetworkError where error.status == 404 {
                try await ledger.leave(group: id)
            }
        }
        return try await database.groups.fetch(id: id)
    }

    /// Every group stored here, by title.
    public func groups() async throws -> [LocalGroup] {
        try await database.groups.fetch(RecordQuery().order(by: "title"))
    }

    /// Gives group `id` a new title (admins only).
    @discardableResult
    public func renameGroup(_ id: String, to title: String) async throws -> LocalGroup {
        let checked: String
        do { checked = try Validation.groupTitle(title) } catch { throw GroupError.invalid(error.message) }
        let group = try await api.send(ChirpEndpoints.RenameGroup(id, title: checked))
        try await ledger.store(group: group)
        return LocalGroup(group)
    }

    /// Adds `member` to group `id` (admins only).
    public func addMember(_ member: String, to id: String) async throws { try await change(.add, member, in: id) }

    /// Removes `member` from group `id` (admins only).
    public func removeMember(_ member: String, from id: String) async throws {
        try await change(.remove, member, in: id)
    }

    /// Makes `member` an admin of group `id`, or with `false` takes the role back (admins only).
    public func setAdmin(_ member: String, in id: String, _ admin: Bool = true) async throws {
        try await change(admin ? .makeAdmin : .revokeAdmin, member, in: id)
    }

    /// Leaves group `id`: its messages stay readable here; nothing more can be sent to it.
    public func leaveGroup(_ id: String) async throws {
        _ = try await api.send(ChirpEndpoints.ChangeGroupMember(.remove, username, in: id))
        try await ledger.leave(group: id)
    }

    /// Who of group `id` read message `messageId` (a local id, server id or client id), and when.
    public func readers(of messageId: String, inGroup id: String) async throws -> [GroupReader] {
        let key = ConversationKey.group(id)
        guard let local = try await localMessageId(messageId, with: key),
            let serverId = try await database.messages.fetch(id: local)?.serverId
        else {
            throw MessageActionError.noSuchMessage(messageId)
        }
        return try await api.send(ChirpEndpoints.GroupMessageReads(serverId, in: id))
    }

    /// Members typing in group `id` now, sorted.
    public func typingMembers(in id: String) -> [String] {
        sync.typing.typingMembers(in: ConversationKey.group(id))
    }

    /// Throws `GroupError.left` when `key` names a group this user left.
    func checkCanSend(to key: String) async throws {
        guard let id = ConversationKey.groupId(of: key), try await database.groups.fetch(id: id)?.left == true else {
            return
        }
        throw GroupError.left(id)
    }

    private func change(_ change: ChirpEndpoints.ChangeGroupMember.Change, _ member: String, in id: String) async throws
    {
        _ = try await api.send(ChirpEndpoints.ChangeGroupMember(change, member, in: id))
        _ = try await group(id, refresh: true)
    }
}
