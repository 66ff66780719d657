import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `--group ID`: the group a conversation command is about instead of a user.
struct GroupOption: ParsableArguments {
    @Option(
        name: .customLong("group"),
        help: ArgumentHelp("A group's id (chirp group list shows it) instead of a user.", valueName: "group-id"))
    var id: String?

    /// The group's conversation key (`g:ID`); nil without `--group`.
    var key: String? { id.map(ConversationKey.group) }

    func validate() throws {
        if let id, id.isEmpty || !id.allSatisfy(\.isNumber) {
            throw ValidationError("--group takes a group's number, as chirp group list shows it (not \(id))")
        }
    }
}

/// `chirp group …`: create groups and manage their members (these go to the server at once;
/// messages to a group go through `chirp send --group ID`, queued like direct ones).
struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Create group conversations and manage their members.",
        subcommands: [
            GroupCreateCommand.self, GroupListCommand.self, GroupShowCommand.self, GroupRenameCommand.self,
            GroupAddCommand.self, GroupRemoveCommand.self, GroupLeaveCommand.self, GroupAdminCommand.self,
        ])
}

/// How a group prints: its id, title and members (admins marked).
enum GroupLines {
    static func lines(_ group: LocalGroup) -> [String] {
        let state = group.left ? " (you left)" : ""
        return ["group \(group.id): \(group.title)\(state) — \(group.members.count) members"]
            + group.members.map { "  \($0.user.username)\($0.role == .admin ? " (admin)" : "")" }
    }

    /// Runs `body` against the server, turning the kit's refusals into what to do.
    static func run<T>(_ client: ClientOptions, _ body: (UserSession) async throws -> T) async throws -> T {
        do {
            return try await ClientRuntime(client).withConnectedSession(body).1
        } catch let error as GroupError {
            throw CommandFailure(error.description)
        }
    }
}

/// `chirp group create TITLE USER…`.
struct GroupCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a group with people you may message (you are its first admin).")

    @Argument(help: "The group's title (1–80 characters; quote it if it has spaces).") var title: String
    @Argument(help: "The other members' usernames (at least one).") var members: [String] = []
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard !members.isEmpty else {
            throw ValidationError("name at least one other member: chirp group create TITLE USER…")
        }
    }

    func run() async throws {
        let (title, members) = (title, members)
        let group = try await GroupLines.run(client) { try await $0.createGroup(title, members: members) }
        try output.emit(group) { GroupLines.lines(group) + ["chirp send --group \(group.id) TEXT writes to it"] }
    }
}

/// `chirp group list`.
struct GroupListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The groups you are in (and those you left).")

    @OptionGroup var client: ClientOptions

    func run() async throws {
        let groups = try await GroupLines.run(client) { session in
            _ = try await session.synchronize()
            return try await session.groups()
        }
        let lines =
            groups.isEmpty
            ? ["no groups yet: chirp group create TITLE USER… starts one"] : groups.flatMap(GroupLines.lines)
        lines.forEach(printLine)
    }
}

/// `chirp group show ID`.
struct GroupShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "A group's title and members.")

    @Argument(help: "The group's id.") var id: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let id = id
        guard let group = try await GroupLines.run(client, { try await $0.group(id, refresh: true) }) else {
            throw CommandFailure("no group \(id) here: chirp group list shows yours")
        }
        GroupLines.lines(group).forEach(printLine)
    }
}

/// `chirp group rename ID TITLE`.
struct GroupRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Give a group a new title (admins only).")

    @Argument(help: "The group's id.") var id: String
    @Argument(help: "The new title.") var title: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let (id, title) = (id, title)
        let group = try await GroupLines.run(client) { try await $0.renameGroup(id, to: title) }
        printLine("renamed group \(group.id): \(group.title)")
    }
}

/// `ID USER`: a group and one of its (future) members.
struct GroupMemberArguments: ParsableArguments {
    @Argument(help: "The group's id (chirp group list shows it).") var id: String
    @Argument(help: "The member's username.") var username: String
}

/// One member change of a group (`add`, `remove`, `admin`): `change` calls the kit, `done`
/// says what happened.
protocol GroupMemberCommand: AsyncParsableCommand {
    var target: GroupMemberArguments { get }
    var client: ClientOptions { get }
    var done: String { get }
    func change(_ session: UserSession, _ id: String, _ username: String) async throws
}

extension GroupMemberCommand {
    func run() async throws {
        let (id, username) = (target.id, target.username)
        try await GroupLines.run(client) { try await self.change($0, id, username) }
        printLine(done)
    }
}

/// `chirp group add ID USER`.
struct GroupAddCommand: GroupMemberCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add someone you may message to a group (admins only).")
    @OptionGroup var target: GroupMemberArguments
    @OptionGroup var client: ClientOptions
    var done: String { "added \(target.username) to group \(target.id)" }
    func change(_ session: UserSession, _ id: String, _ username: String) async throws {
        try await session.addMember(username, to: id)
    }
}

/// `chirp group remove ID USER`.
struct GroupRemoveCommand: GroupMemberCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove someone from a group (admins only).")
    @OptionGroup var target: GroupMemberArguments
    @OptionGroup var client: ClientOptions
    var done: String { "removed \(target.username) from group \(target.id)" }
    func change(_ session: UserSession, _ id: String, _ username: String) async throws {
        try await session.removeMember(username, from: id)
    }
}

/// `chirp group admin ID USER [--revoke]`.
struct GroupAdminCommand: GroupMemberCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Make a member an admin of a group, or take the role back (admins only).")
    @OptionGroup var target: GroupMemberArguments
    @Flag(help: "Take the admin role back instead.") var revoke = false
    @OptionGroup var client: ClientOptions
    var done: String { "\(target.username) \(revoke ? "is no longer" : "is") an admin of group \(target.id)" }
    func change(_ session: UserSession, _ id: String, _ username: String) async throws {
        try await session.setAdmin(username, in: id, !revoke)
    }
}

/// `chirp group leave ID`.
struct GroupLeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract:
            "Leave a group (what you saw stays readable; the longest-standing member becomes admin if you were the last)."
    )

    @Argument(help: "The group's id.") var id: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let id = id
        try await GroupLines.run(client) { try await $0.leaveGroup(id) }
        printLine("left group \(id)")
    }
}
