import ChirpModels

/// The rules of group conversations, written once (API.md part 3): who may add whom (part 1's
/// may-message rule, with requests; blocks refuse either way), who may change what (admins),
/// who becomes admin when the last one leaves, and when a repeated call is a retry. Both
/// storages ask these inside a group write's transaction.
struct GroupRules: GroupDecisions {
    /// The most members a group may have, the creator included (`--max-group-members`).
    var maxMembers: Int
    /// The most groups one user may be a current member of (`--max-groups-per-user`).
    var maxGroupsPerUser: Int = ServerConfiguration().maxGroupsPerUser

    func replay(_ existing: Group, requestKey: String, creatorIsMember: Bool, for new: NewGroup) throws -> Group {
        // A creator who left (or was removed) sees the group no more: the repeated call is 404.
        guard creatorIsMember else { throw GroupService.notFound }
        guard requestKey == new.requestKey else {
            throw APIError(
                .conflict, APIErrorCode.clientIdReused,
                "This clientGroupId was already used for another group; pick a new one.",
                field: "clientGroupId")
        }
        return existing
    }

    func admit(_ members: [RecipientFacts?], groupCounts: GroupCounts, for new: NewGroup) throws -> [Bool] {
        try mayJoin(groups: groupCounts.creator, named: nil)
        let requests = try zip(members, new.members).map { facts, name in
            try Self.admission(adder: new.creator.id, facts, named: name)
        }
        for (facts, name) in zip(members, new.members) {
            if let facts { try mayJoin(groups: groupCounts.members[facts.id] ?? 0, named: name) }
        }
        return requests
    }

    /// Refuses a user (named `name`; nil: the one asking) who is a current member of `groups`
    /// groups already, the most one may be in (409 `too_many_groups`).
    func mayJoin(groups: Int, named name: String?) throws {
        guard groups >= maxGroupsPerUser else { return }
        guard let name else {
            throw APIError(
                .conflict, APIErrorCode.tooManyGroups,
                "You are in \(maxGroupsPerUser) groups, the most one may be in; leave one before you start another.")
        }
        throw APIError(
            .conflict, APIErrorCode.tooManyGroups,
            "\(name.prefix(32)) is in the most groups one may be in (\(maxGroupsPerUser)).",
            field: name)
    }

    /// Whether `adder` may add the user of `facts` (named `name`): as a member (false), as a
    /// group request (true, their setting takes requests from everyone), or not (403
    /// `dm_not_allowed` naming them, blocks included, so a block is not revealed).
    static func admission(adder: Int64, _ facts: RecipientFacts?, named name: String) throws -> Bool {
        guard let facts else {
            throw APIError(
                .notFound, APIErrorCode.userNotFound, "There is no user named \(name.prefix(32)).", field: name)
        }
        do {
            switch try MessageRules.permission(sender: adder, to: facts, named: name) {
            case .ordinary, .reply: return false
            case .request: return true
            }
        } catch {
            var refusal = APIError.dmNotAllowed(name)
            refusal.field = facts.username
            throw refusal
        }
    }

    func decide(_ change: GroupChange, facts: GroupChangeFacts) throws -> GroupWrite {
        guard let actor = facts.actor else { throw GroupService.notFound }
        let isAdmin = actor.role == .admin
        switch change {
        case .rename(let title):
            guard isAdmin else { throw Self.notAdmin }
            return title == facts.group.title ? .none : .rename(title)
        case .accept:
            guard actor.request else { throw Self.noRequest }
            return .accept(userId: actor.userId)
        case .decline:
            guard actor.request else { throw Self.noRequest }
            return .remove(userId: actor.userId, promote: Self.promotion(leaving: actor, facts.members), forget: true)
        case .accountDeleted:
            return .remove(userId: actor.userId, promote: Self.promotion(leaving: actor, facts.members))
        case .encrypt:
            guard isAdmin else { throw Self.notAdmin }
            if facts.group.encrypted { return .none }
            if let member = facts.membersWithoutDevices.first { throw EncryptionRules.noDevices(member) }
            return .encrypt
        default:
            break
        }
        guard let (name, _) = change.target else { return .none }
        guard let target = facts.target else { throw APIError.userNotFound(name) }
        let member = facts.member(target.id)
        switch change {
        case .rename, .accept, .decline, .accountDeleted, .encrypt:
            return .none
        case .add:
            guard isAdmin else { throw Self.notAdmin }
            if member != nil { return .none }
            guard facts.members.count < maxMembers else {
                throw APIError(
                    .conflict, APIErrorCode.groupFull, "This group has \(maxMembers) members, the most it may have.")
            }
            try mayJoin(groups: facts.targetGroups, named: name)
            return .add(userId: target.id, request: try Self.admission(adder: actor.userId, target, named: name))
        case .remove:
            guard isAdmin || target.id == actor.userId else { throw Self.notAdmin }
            guard let member else { return .none }
            return .remove(userId: member.userId, promote: Self.promotion(leaving: member, facts.members))
        case .makeAdmin, .dropAdmin:
            guard isAdmin else { throw Self.notAdmin }
            guard let member else { throw Self.notMember(name) }
            var role = GroupRole.member
            if case .makeAdmin = change { role = .admin }
            if member.role == role { return .none }
            if role == .member, !facts.members.contains(where: { $0.role == .admin && $0.userId != member.userId }) {
                throw APIError(
                    .conflict, APIErrorCode.lastAdmin,
                    "A group keeps at least one admin: make another member admin first.")
            }
            return .setRole(userId: member.userId, role)
        }
    }

    /// Who becomes admin when `leaving` goes: the longest-standing other member, when
    /// `leaving` is the last admin (`members` are longest-standing first).
    static func promotion(leaving: GroupMemberFacts, _ members: [GroupMemberFacts]) -> Int64? {
        let others = members.filter { $0.userId != leaving.userId }
        guard leaving.role == .admin, !others.contains(where: { $0.role == .admin }) else { return nil }
        return others.first?.userId
    }

    func replay(_ existing: Message, for new: NewGroupMessage) throws -> Message {
        guard existing.text == new.text, existing.replyTo == new.replyTo.map({ String($0) }),
            existing.media.map(\.id) == new.media.map(\.id), existing.envelope == new.envelope
        else {
            throw APIError.clientMessageIdReused
        }
        return existing
    }

    func mayStore(_ new: NewGroupMessage, encrypted: Bool) throws {
        try EncryptionRules.checkForm(sealed: new.envelope != nil, encrypted: encrypted)
    }

    func encode(_ group: Group, asRequest: Bool) -> String {
        var group = group
        group.request = asRequest ? true : nil
        return (try? APIJSON.encode(group)) ?? "{}"
    }

    func encode(_ message: Message) -> String {
        (try? APIJSON.encode(message)) ?? "{}"
    }

    func removedNotice(_ groupId: Int64) -> String {
        (try? APIJSON.encode(GroupRemovedNotice(group: String(groupId)))) ?? "{}"
    }

    func encode(_ conversation: Conversation) -> String {
        (try? APIJSON.encode(conversation)) ?? "{}"
    }

    static let noRequest = APIError(
        .notFound, APIErrorCode.requestNotFound, "You have no group request waiting for your answer here.")

    static let notAdmin = APIError(.forbidden, APIErrorCode.notAdmin, "Only the group's admins may do that.")

    static func notMember(_ name: String) -> APIError {
        APIError(.notFound, APIErrorCode.notMember, "\(name.prefix(32)) is not a member of this group.")
    }
}
