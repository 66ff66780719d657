import ChirpModels
import Foundation
import NIOPosix

/// Writes one user's data export: a ustar archive (`UstarWriter`) under `chirp-export/` with
///
/// - `export.json`: `{"format": 1, "username", "createdAt"}`;
/// - `profile.json`: the user as `GET /v1/me` shows them;
/// - `settings.json`: their settings as `GET /v1/me/settings` shows them;
/// - `following.json`, `followers.json`, `blocks.json`: lists of User, newest first;
/// - `tweets.json`: their tweets, newest first;
/// - `conversations.json`: as `GET /v1/conversations` lists them;
/// - `requests.json`: the message requests waiting for their answer, as
///   `GET /v1/conversations?requests=true` lists them;
/// - `messages/<peer>.json`: each conversation's messages oldest first, as the API shows them
///   (reactions, replies, media references, tombstones) — the conversations and requests
///   listed and those with people the user blocked;
/// - `groups.json`: the groups the user is a member of, as `GET /v1/groups/{id}` shows them;
/// - `groups/<id>.json`: each group's messages the user sees, oldest first, as
///   `GET /v1/groups/{id}/messages` shows them — the groups listed with a message (those they
///   left included, up to their leaving) and those they are in, when they saw a message there;
/// - `media.json`: `[{"path", "media": Media}]`, every media of those messages, and the bytes
///   at `path` (`media/<id>[-<filename>]`).
///
/// Everything is read through the services the API answers with, as the user: every query is
/// scoped to them, so nobody else's conversation can enter. Lists go to a spool file page by
/// page and media bytes are copied from disk in chunks, so memory stays bounded.
struct DataExportArchiver: Sendable {
    let accounts: AccountService
    let social: SocialService
    let safety: SafetyService
    let tweets: TweetService
    let messages: MessageService
    /// The conversation list, pinned ones first, as `GET /v1/conversations` pages it.
    let conversations: ConversationService
    let settings: SettingsService
    let media: MediaFiles
    let groups: GroupService

    static let root = "chirp-export/"
    static let pageSize = 100

    /// Writes `viewer`'s archive to `path`, spooling lists in `work` (an existing directory).
    func write(_ viewer: Viewer, to path: String, work: URL, at now: Timestamp) async throws {
        let tar = try UstarWriter(path: path, modified: now.date)
        let spool = ArchiveListSpooler(tar: tar, directory: work, root: Self.root)
        try tar.add(
            Self.root + "export.json",
            data: APIJSON.encoder().encode(
                ExportManifest(format: 1, username: viewer.username, createdAt: now)))
        try tar.add(Self.root + "profile.json", data: APIJSON.encoder().encode(try await accounts.me(viewer)))
        try tar.add(Self.root + "settings.json", data: APIJSON.encoder().encode(try await settings.settings(viewer)))
        try await spool.list("following.json") {
            try await social.following(of: viewer.username, viewer: viewer, page: Self.page($0))
        }
        try await spool.list("followers.json") {
            try await social.followers(of: viewer.username, viewer: viewer, page: Self.page($0))
        }
        var blocked: [String] = []
        try await spool.list("blocks.json", each: { blocked.append($0.username) }) {
            try await safety.blocks(viewer, page: Self.page($0))
        }
        try await spool.list("tweets.json") {
            try await tweets.tweets(by: viewer.username, viewer: viewer, page: Self.page($0))
        }
        var peers: [String] = []
        var listedGroups: [String] = []
        let listed = { (conversation: Conversation) in
            if let group = conversation.group {
                // A group listed with no message yet gets no file, as a group they are in and saw nothing of.
                if conversation.lastMessage != nil { listedGroups.append(group.id) }
            } else {
                peers.append(conversation.peer.username)
            }
        }
        try await spool.list("conversations.json", each: listed) {
            try await conversations.list(viewer, page: Self.page($0))
        }
        try await spool.list("requests.json", each: listed) {
            try await conversations.list(viewer, page: Self.page($0), requests: true)
        }
        let memberOf = try await groups.groups(viewer)
        try tar.add(Self.root + "groups.json", data: APIJSON.encoder().encode(memberOf))
        var attached: [String: Media] = [:]
        let collect = { (message: Message) in for item in message.media { attached[item.id] = item } }
        for peer in Set(peers + blocked).sorted() {
            try await spool.list("messages/\(peer).json", keepEmpty: peers.contains(peer), each: collect) { cursor in
                try await messages.page(
                    viewer, peer: peer, limit: Self.pageSize, before: nil, after: cursor.flatMap { Int64($0) } ?? 0)
            }
        }
        for group in Set(listedGroups + memberOf.map(\.id)).sorted(by: { (Int64($0) ?? 0) < (Int64($1) ?? 0) }) {
            try await spool.list("groups/\(group).json", keepEmpty: listedGroups.contains(group), each: collect) {
                cursor in
                try await groups.page(
                    viewer, id: group, limit: Self.pageSize, before: nil, after: cursor.flatMap { Int64($0) } ?? 0)
            }
        }
        var archived: [ArchivedMedia] = []
        for item in attached.values.sorted(by: { (Int64($0.id) ?? 0, $0.id) < (Int64($1.id) ?? 0, $1.id) }) {
            try Task.checkCancellation()
            let name = "media/" + Self.fileName(item)
            let blob = media.blobPath(item.sha256)
            let added = try await NIOThreadPool.singleton.runIfActive {
                try tar.add(Self.root + name, contentsOf: blob)
            }
            archived.append(ArchivedMedia(path: added ? name : nil, media: item))
        }
        try tar.add(Self.root + "media.json", data: APIJSON.encoder().encode(archived))
        try await NIOThreadPool.singleton.runIfActive { try tar.finish() }
    }

    static func page(_ cursor: String?) -> PageRequest {
        PageRequest(limit: pageSize, cursor: cursor.flatMap { Int64($0) })
    }

    /// `<id>` and, when the uploader named the file, `-` and that name's safe characters
    /// (letters, digits, `.`, `_`, `-`; at most 60), so the archive's names stay short and plain.
    static func fileName(_ media: Media) -> String {
        let safe = String(
            (media.filename ?? "").unicodeScalars.filter {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }.prefix(60).map(Character.init))
        let trimmed = safe.drop { $0 == "." }
        return trimmed.isEmpty ? media.id : "\(media.id)-\(trimmed)"
    }
}

/// The first file of an export: what it is and whose.
struct ExportManifest: Encodable {
    var format: Int
    var username: String
    var createdAt: Timestamp
}

/// One entry of `media.json`: where the bytes are in the archive (null when the server's copy
/// was missing) and the media as the API describes it.
struct ArchivedMedia: Encodable {
    var path: String?
    var media: Media
}
