import PostgresNIO

/// The arguments of one `chirp_send_batch_confirming` call, each bound under the name the
/// function declares for it: PostgreSQL's named notation, `p_ids => $5::int8[]`.
///
/// The call takes 32 arrays and scalars. Bound by position, a value one place off is still
/// accepted whenever the two types agree (most are `int8[]` or `bool[]`), and reading the call
/// meant counting places. Here each value is bound beside its parameter's name and type, and
/// the statement's text (`sql`) is made by the same calls, so the two cannot drift apart: a
/// misspelt name fails the first batch of every test run on PostgreSQL.
struct SendBatchArguments {
    private(set) var bindings = PostgresBindings(capacity: 32)
    /// `name => $n::type`, one per argument, in the order bound: written only for `sql`, not
    /// on every batch.
    private var notation: [String]?

    /// The arguments that write `plan`: its sessions to confirm first, then what the function
    /// locks, checks and stores (`PostgresSendBatchSchema`), the events' type, the channel and
    /// payload of the notification, and how many ids to reserve for the next batch.
    init(plan: SendBatchPlan, type: String, channel: String, payload: String, reserve: Int32) {
        self.init(plan: plan, type: type, channel: channel, payload: payload, reserve: reserve, notation: nil)
    }

    private init(
        plan: SendBatchPlan, type: String, channel: String, payload: String, reserve: Int32, notation: [String]?
    ) {
        self.notation = notation
        bind("p_sessions", "bytea[]", plan.sessions.hashes)
        bind("p_session_users", "int8[]", plan.sessions.users)
        bind("p_session_ats", "int8[]", plan.sessions.ats)
        bind("p_users", "int8[]", plan.users)
        bind("p_ids", "int8[]", plan.ids)
        bind("p_senders", "int8[]", plan.senders)
        bind("p_recipients", "int8[]", plan.recipients)
        bind("p_recipient_keys", "text[]", plan.recipientKeys)
        bind("p_client_ids", "text[]", plan.clientIds)
        bind("p_texts", "text[]", plan.texts)
        bind("p_created_ats", "int8[]", plan.createdAts)
        bind("p_envelopes", "text[]", plan.envelopes)
        bind("p_reply_tos", "int8[]", plan.replyTos)
        bind("p_terms", "text[]", plan.searchTerms)
        bind("p_media_jsons", "text[]", plan.mediaJSONs)
        bind("p_follows", "bool[]", plan.decidedOn.follows)
        bind("p_has_received", "bool[]", plan.decidedOn.hasReceived)
        bind("p_blocked", "bool[]", plan.decidedOn.blocked)
        bind("p_blocked_by", "bool[]", plan.decidedOn.blockedBy)
        bind("p_takes_requests", "bool[]", plan.decidedOn.takesRequests)
        bind("p_request_states", "int4[]", plan.decidedOn.requests)
        bind("p_sender_pending", "bool[]", plan.decidedOn.senderPending)
        bind("p_encrypted", "bool[]", plan.decidedOn.encrypted)
        bind("p_mm_messages", "int8[]", plan.mediaLinks.messages)
        bind("p_mm_positions", "int4[]", plan.mediaLinks.positions)
        bind("p_mm_media", "int8[]", plan.mediaLinks.media)
        let requestRows = plan.requestRows
        bind("p_rq_recipients", "int8[]", requestRows.recipients)
        bind("p_rq_senders", "int8[]", requestRows.senders)
        bind("p_rq_accepted", "bool[]", requestRows.accepted)
        bind("p_type", "text", type)
        bind("p_channel", "text", channel)
        bind("p_payload", "text", payload)
        bind("p_reserve", "int4", reserve)
    }

    /// Binds `value` to the function's parameter `name`, cast to `type`.
    private mutating func bind(_ name: String, _ type: String, _ value: some PostgresDynamicTypeEncodable) {
        bindings.append(value)
        notation?.append("\(name) => $\(bindings.count)::\(type)")
    }

    /// The call, as every batch makes it: the arguments of an empty plan name the same
    /// parameters in the same order.
    static let sql =
        "SELECT * FROM chirp_send_batch_confirming("
        + SendBatchArguments(plan: SendBatchPlan(), type: "", channel: "", payload: "", reserve: 0, notation: [])
        .notation!.joined(separator: ", ")
        + ")"
}
