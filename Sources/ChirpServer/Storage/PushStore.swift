import ChirpModels

/// Web Push (issue 54): the server's VAPID key, the accounts' subscriptions and the queue of
/// pushes to send. Storage keeps the facts; `PushService` and `PushDeliveryWorker` decide.
protocol PushStore: Sendable {
    /// The private key kept under `name`: the stored one, or `created` stored first when there
    /// is none (instances sharing a database all get the first one stored).
    func pushKey(named name: String, created: String, at: Timestamp) async throws -> String

    /// Stores a subscription under the viewer's id for it: a new one (unless the account
    /// already has `limit`), or the same id again with what the browser sent now.
    func putPushSubscription(_ new: NewPushSubscription, limit: Int) async throws -> PushSubscriptionPut

    /// The account's subscriptions, oldest first.
    func pushSubscriptions(userId: Int64) async throws -> [StoredPushSubscription]

    /// Deletes the account's subscription with that id (and its queued pushes); false: none.
    @discardableResult
    func deletePushSubscription(userId: Int64, clientId: String) async throws -> Bool

    /// Whether any account has a subscription (with none, sends queue nothing).
    func hasPushSubscriptions() async throws -> Bool

    /// Queues a push to every subscription of every recipient of these messages who would be
    /// told (a direct message's recipient, a group message's other members) and has not muted
    /// the conversation or blocked the sender, one per subscription and conversation: a newer
    /// message takes an older one's place. Returns how many were queued.
    @discardableResult
    func queuePushes(messageIds: [Int64], at: Timestamp) async throws -> Int

    /// When the next queued push is due (nil: none queued).
    func nextPushDue() async throws -> Timestamp?

    /// Takes up to `limit` pushes due at `now` for sending: each is leased until `leaseEnd`
    /// (due again then, should this instance stop before it ends them) and counted as an
    /// attempt; another instance takes others.
    func claimPushes(now: Timestamp, leaseEnd: Timestamp, limit: Int) async throws -> [PushJob]

    /// Ends what a claimed push became (nothing, when a newer message took its place since).
    func endPush(_ job: PushJob, _ end: PushEnd) async throws
}

/// Where a subscription's pushes go and how they read: the browser's endpoint and keys
/// (base64url), and whether they may show the message's text.
struct PushTarget: Sendable, Equatable {
    var endpoint: String
    var p256dh: String
    var auth: String
    var preview: Bool
}

/// A subscription as a browser's `PushSubscription` gives it, for one session of an account.
struct NewPushSubscription: Sendable, Equatable {
    var userId: Int64
    /// The token hash of the session that made it: it ends with that session.
    var sessionHash: [UInt8]
    var clientId: String
    var target: PushTarget
    var at: Timestamp
}

/// A stored subscription.
struct StoredPushSubscription: Sendable, Equatable {
    var id: Int64
    var clientId: String
    var target: PushTarget
    var createdAt: Timestamp
}

/// What storing a subscription did.
enum PushSubscriptionPut: Sendable, Equatable {
    case created(StoredPushSubscription)
    case replaced(StoredPushSubscription)
    /// The account has as many as it may.
    case tooMany
}

/// A claimed push: where it goes, and the message it announces as its recipient sees it now.
struct PushJob: Sendable, Equatable {
    var deliveryId: Int64
    var messageId: Int64
    /// Attempts so far, this one included.
    var attempts: Int
    /// When the message it announces was queued.
    var queuedAt: Timestamp
    var subscription: StoredPushSubscription
    var sender: String
    var text: String
    /// A message of an encrypted conversation: the server has no text to show.
    var encrypted: Bool = false
    /// The group of a group message; nil for a direct one.
    var groupId: Int64?
    /// The message was unsent or taken down since.
    var deleted: Bool
    /// The recipient has read it on some device since.
    var seen: Bool
    /// The recipient muted the conversation, or left the group, since.
    var muted: Bool
}

/// How a claimed push ended.
enum PushEnd: Sendable, Equatable {
    /// Sent, or not to be sent (read, muted, refused): off the queue.
    case done
    /// To be tried again at that time.
    case retry(at: Timestamp)
    /// The push service says the subscription is gone: it and its queue go.
    case subscriptionGone
}
