import ChirpClient
import ChirpModels
import ChirpStore

extension AppFeature {
    /// Opens the new-group form over the conversations: the members to pick are the people
    /// this user may message (the direct conversations' peers and the followers listed).
    func openNewGroup(_ state: inout State) {
        var form = AppState.NewGroupForm()
        form.candidates = state.conversations.filter { !$0.isGroup && !Validation.isDeletedAccountName($0.peerName) }
            .map(\.peerName)
        state.newGroup = form
        state.screen = .newGroup
    }

    /// Keys of the new-group form: typing goes to the title, Tab moves to the member list
    /// (↑↓ select, Space picks or drops) and back, Enter creates the group and opens it, Esc
    /// goes back to the conversations.
    func newGroupKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        switch key {
        case .escape:
            state.screen = .conversations
        case .tab:
            state.newGroup.choosingMembers.toggle()
        case .enter:
            let title = state.newGroup.title.trimmed
            let members = state.newGroup.picked
            guard !title.isEmpty else {
                state.banner = .init("Type a title for the group first.", isError: true)
                return .none
            }
            guard !members.isEmpty else {
                state.banner = .init("Pick at least one member: Tab, then Space on a name.", isError: true)
                return .none
            }
            state.busySince = state.now
            let client = self.client
            return .run { send in
                let key = try await client.createGroup(title, members)
                // The list first: it holds the new group's title, which the conversation shows.
                await send(.conversationsLoaded(try await client.conversations(false)))
                await send(.groupCreated(key))
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .up where state.newGroup.choosingMembers, .character("k") where state.newGroup.choosingMembers:
            state.newGroup.selected = max(state.newGroup.selected - 1, 0)
        case .down where state.newGroup.choosingMembers, .character("j") where state.newGroup.choosingMembers:
            state.newGroup.selected = min(state.newGroup.selected + 1, max(state.newGroup.candidates.count - 1, 0))
        case .character(" ") where state.newGroup.choosingMembers:
            guard state.newGroup.candidates.indices.contains(state.newGroup.selected) else { return .none }
            let name = state.newGroup.candidates[state.newGroup.selected]
            if let index = state.newGroup.picked.firstIndex(of: name) {
                state.newGroup.picked.remove(at: index)
            } else {
                state.newGroup.picked.append(name)
            }
        default:
            if !state.newGroup.choosingMembers { _ = state.newGroup.title.handle(key) }
        }
        return .none
    }
}

extension AppFeature {
    /// Ctrl-G in a group: its members, read from the server.
    func openGroupMembers(_ id: String, _ state: inout State) -> Effect<Action> {
        state.screen = .groupMembers
        state.selectedMember = 0
        state.confirmingRemoval = nil
        state.newMember = nil
        return loadGroup(id)
    }

    func loadGroup(_ id: String) -> Effect<Action> {
        let client = self.client
        return .run { send in
            await send(.groupLoaded(try await client.group(id, true)))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    /// Keys of the member list: ↑↓ select; an admin's + adds someone (their name typed, Enter
    /// adds), a gives or takes the admin role and x removes (asking first); l leaves; Esc goes
    /// back to the conversation.
    func groupMembersKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        guard let group = state.group else {
            if key == .escape { state.screen = .conversation }
            return .none
        }
        let members = group.members
        let selected =
            members.indices.contains(state.selectedMember) ? members[state.selectedMember].user.username : nil
        if let name = state.confirmingRemoval {
            state.confirmingRemoval = nil
            guard key == .character("y") else { return .none }
            return change(group.id, name, .remove, done: "Removed \(name) from the group.")
        }
        if var input = state.newMember {
            switch key {
            case .escape:
                state.newMember = nil
            case .enter:
                state.newMember = nil
                let name = input.trimmed
                guard !name.isEmpty else { return .none }
                return change(group.id, name, .add, done: "Added \(name) to the group.")
            case .character(let character) where !(character.isLetter || character.isNumber || character == "_"):
                break
            default:
                _ = input.handle(key)
                state.newMember = input
            }
            return .none
        }
        let admin = group.isAdmin(state.username ?? "")
        switch key {
        case .character("+") where admin:
            state.newMember = TextInput(limit: 15)
        case .escape:
            state.screen = .conversation
            return reloadMessages(state, refresh: false)
        case .up, .character("k"):
            state.selectedMember = max(state.selectedMember - 1, 0)
        case .down, .character("j"):
            state.selectedMember = min(state.selectedMember + 1, max(members.count - 1, 0))
        case .character("a") where admin:
            guard let selected else { return .none }
            let makeAdmin = !group.isAdmin(selected)
            return change(
                group.id, selected, makeAdmin ? .makeAdmin : .revokeAdmin,
                done: makeAdmin ? "\(selected) is an admin now." : "\(selected) is no longer an admin.")
        case .character("x") where admin:
            guard let selected, selected.lowercased() != state.username?.lowercased() else {
                state.banner = .init("To leave the group yourself, press l.", isError: false)
                return .none
            }
            state.confirmingRemoval = selected
        case .character("a"), .character("x"), .character("+"):
            state.banner = .init("Only the group's admins can do that.", isError: true)
        case .character("l"):
            return change(group.id, state.username ?? "", .leave, done: "You left \(group.title).")
        default:
            break
        }
        return .none
    }

    private func change(_ id: String, _ username: String, _ change: AppClient.GroupChange, done: String) -> Effect<
        Action
    > {
        let client = self.client
        return .run { send in
            try await client.changeGroup(id, username, change)
            await send(.groupChanged(done))
            await send(.groupLoaded(try await client.group(id, false)))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }
}
