import ChirpModels

/// `DeviceStore`, written once for both engines.
extension StorageEngine {
    func putDevice(_ new: NewDevice, limit: Int, notice: String) async throws -> DevicePut {
        try await writing { scope in
            // The account's row first: two puts of one account count one after the other.
            try await scope.lockUsers([new.userId])
            let existing = try await scope.queryRow(
                "SELECT user_id, identity_key, encryption_key FROM devices WHERE id = $1", new.id)
            var changed = true
            if let existing {
                let owner: Int64 = try existing("user_id")
                let identityKey: String = try existing("identity_key")
                guard owner == new.userId, identityKey == new.request.identityKey else { return .identityKeyChanged }
                changed = try existing("encryption_key") != new.request.encryptionKey
                try await scope.run(
                    """
                    UPDATE devices SET session_hash = $2, name = $3, encryption_key = $4, key_signature = $5, updated_at = $6
                    WHERE id = $1
                    """, new.id, SQLBlob(new.sessionHash), new.request.name, new.request.encryptionKey,
                    new.request.keySignature, new.at)
            } else {
                let count =
                    try await scope.queryValue(
                        "SELECT COUNT(*) FROM devices WHERE user_id = $1", new.userId, as: Int.self) ?? 0
                guard count < limit else { return .tooMany }
                try await scope.run(
                    """
                    INSERT INTO devices (id, user_id, session_hash, name, identity_key, encryption_key, key_signature, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
                    """, new.id, new.userId, SQLBlob(new.sessionHash), new.request.name, new.request.identityKey,
                    new.request.encryptionKey, new.request.keySignature, new.at)
            }
            guard
                let device = try await scope.queryRow(
                    "SELECT \(DeviceSQL.columns) FROM devices d WHERE d.id = $1", new.id
                )
                .map(Self.device(from:))
            else { throw StorageError.inconsistent("device \(new.id) is missing") }
            let appended =
                changed ? try await Self.announceDevices(of: new.userId, notice: notice, at: new.at, in: scope) : []
            return existing == nil ? .created(device, appended: appended) : .replaced(device, appended: appended)
        }
    }

    func devices(usernameKey: String) async throws -> [Device]? {
        try await reading { scope in
            guard let userId = try await scope.userId(key: usernameKey) else { return nil }
            return try await scope.query(
                "SELECT \(DeviceSQL.columns) FROM devices d WHERE d.user_id = $1 ORDER BY d.created_at, d.id", userId
            ).map(Self.device(from:))
        }
    }

    func directDevices(viewer: Int64, peerKey: String) async throws -> [String: [Device]]? {
        try await reading { scope in
            guard let peer = try await scope.userId(key: peerKey) else { return nil }
            return try Self.byUser(try await scope.query(DeviceSQL.ofPair, viewer, peer))
        }
    }

    func groupDevices(groupId: Int64, viewer: Int64) async throws -> [String: [Device]]? {
        try await reading { scope in
            guard let membership = try await scope.membership(groupId: groupId, userId: viewer),
                try membership("current", as: Bool.self)
            else { return nil }
            return try Self.byUser(try await scope.query(DeviceSQL.ofGroup, groupId))
        }
    }

    /// Rows of `DeviceSQL.ofPair` or `ofGroup` as each user's devices.
    private static func byUser(_ rows: [some StorageRow]) throws -> [String: [Device]] {
        var devices: [String: [Device]] = [:]
        for row in rows {
            let username: String = try row("username")
            let id: String? = try row("d_id")
            devices[username, default: []] += id == nil ? [] : [try device(from: row)]
        }
        return devices
    }

    func deleteDevice(userId: Int64, deviceId: String, at: Timestamp, notice: String) async throws
        -> WriteOutcome<Bool>
    {
        try await writing { scope in
            try await scope.lockUsers([userId])
            guard try await scope.run("DELETE FROM devices WHERE user_id = $1 AND id = $2", userId, deviceId) > 0 else {
                return WriteOutcome(value: false, created: false)
            }
            let appended = try await Self.announceDevices(of: userId, notice: notice, at: at, in: scope)
            return WriteOutcome(value: true, created: false, appended: appended)
        }
    }

    /// Appends `device.changed` to the streams of the users who seal to `userId`.
    private static func announceDevices(of userId: Int64, notice: String, at: Timestamp, in scope: some StorageScope)
        async throws -> [AppendedEvent]
    {
        let watchers = try await scope.query(DeviceSQL.watchers, userId).map { row -> Int64 in try row("id") }
        return try await scope.appendEvents(
            userIds: watchers, type: EventType.deviceChanged, json: notice, at: at, stored: .copy)
    }

    static func device(from row: some StorageRow) throws -> Device {
        Device(
            id: try row("d_id"), name: try row("d_name"), identityKey: try row("d_identity_key"),
            encryptionKey: try row("d_encryption_key"), keySignature: try row("d_key_signature"),
            createdAt: try row("d_created_at"))
    }
}
