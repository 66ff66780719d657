import ChirpModels

extension LocalLedger {
    /// A page of a conversation read from the server: its rows merged (as `merge(page:)`),
    /// and its stretch added to the conversation's history, joining what it meets and leaving
    /// a gap where it meets nothing.
    func merge(history page: HistoryPage) async throws {
        // A group message from someone this user blocked is hidden (the server marks it).
        let items = page.items.filter { !$0.fromBlocked }
        let records = await rows(items)
        let unread = Set(zip(items, records).filter { !$0.0.readByRecipient }.map(\.1.id))
        try await write { [self] in
            var changes = try await mergeRows(records, unread: unread)
            let ids = page.items.compactMap { Int64($0.id) }
            // Stretches that join show more of the conversation: its readers read again.
            if try await updateHistory(
                of: page.peer, { $0.add(page: ids, at: page.bound.stretchBound, limit: page.limit) })
            {
                changes.append(.messages(peer: page.peer))
            }
            return ((), changes)
        }
    }

    /// Changes the stored history stretches of the conversation with `peer`. Runs inside a
    /// write job; returns whether they changed.
    @discardableResult
    func updateHistory(of peer: String, _ change: (inout HistoryStretches) -> Void) async throws -> Bool {
        let id = peer.lowercased()
        var history = try await database.history(with: id)
        let before = history
        change(&history)
        guard history != before else { return false }
        try await database.histories.save([ConversationHistory(id: id, history: history)])
        return true
    }
}
