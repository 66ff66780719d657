import ChirpModels

extension UserSession {
    /// Messages asked of the server per read of history (the API's most).
    static let historyPageSize = 100

    /// The newest `limit` messages with `peer` that are whole — those of the conversation's
    /// newest stored stretch (`HistoryStretches`), with pending and just-acknowledged ones
    /// above it — oldest first, and whether older ones exist, stored further back or still
    /// on the server.
    ///
    /// With `refresh`, the newest page is read from the server first; then, while the stretch
    /// holds fewer than `limit` messages, the gap below it is read (`before` its oldest
    /// message) until the stretch joins the stored one below or reaches the first message. A
    /// reader that asks for more as it scrolls back therefore never skips a message: older
    /// history that does not join stays out of the list until the gap is read. Without
    /// `refresh` only the local database is read.
    public func messages(with peer: String, limit: Int, refresh: Bool) async throws -> (
        items: [LocalMessage], hasOlder: Bool
    ) {
        if refresh {
            try await readHistory(ChirpEndpoints.ListMessages(with: peer, limit: Self.historyPageSize))
            while let newest = try await database.history(with: peer).newest, !newest.reachesFirst,
                case let stored = try await database.messages(with: peer, from: newest.low, limit: limit),
                !stored.more, stored.items.count < limit
            {
                try await readHistory(
                    ChirpEndpoints.ListMessages(with: peer, limit: Self.historyPageSize, before: String(newest.low)))
            }
        }
        let newest = try await database.history(with: peer).newest
        // Nothing read from the server yet (only sends' replies and pending ones): all of it.
        let stored = try await database.messages(with: peer, from: newest?.low ?? 0, limit: limit)
        return (stored.items, stored.more || newest.map { !$0.reachesFirst } ?? false)
    }

    /// The stretches of the conversation with `peer` this device holds whole.
    public func history(with peer: String) async throws -> HistoryStretches {
        try await database.history(with: peer)
    }

    /// Reads one page of history through the data center (one call for concurrent asks),
    /// which hands it to the ledger with where it was read.
    private func readHistory(_ request: ChirpEndpoints.ListMessages) async throws {
        try await dataCenter.update(HistoryPage.self, with: request)
    }
}
