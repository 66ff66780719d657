import ChirpModels
import ChirpPersistence

/// This installation's device as registered with the server (table `this_device`, one row):
/// the public half of what `DeviceKeyFile` holds, when its encryption key was made, and
/// whether the server has it. The private keys are never here.
struct ThisDeviceRecord: StoredRecord {
    static let tableName = "this_device"
    static let rowId = "device"

    /// Always `rowId`.
    var id: String
    var deviceId: String
    var name: String
    /// The encryption public key the server was last given (base64url).
    var encryptionKey: String
    /// When the current encryption key was made: it is rotated 7 days later.
    var keySince: Timestamp
    /// Whether the server accepted the device with `encryptionKey`.
    var registered: Bool
}

/// What this client keeps of another user for encrypted conversations (table `known_users`):
/// their id (conversation ids are made of user ids) and the identity key of every device of
/// theirs seen here, so a message from a device since removed still verifies. Their current
/// devices are not kept: they are asked again by each process (`DeviceDirectory`), so nothing
/// is sealed to a list another process saw change.
struct KnownUser: StoredRecord {
    static let tableName = "known_users"

    /// The username, lowercased.
    var id: String
    /// The user's id (`User.id`); nil until asked.
    var userId: String?
    /// Identity keys by device id, of every device of theirs seen here (the first one seen
    /// for an id stays: the server binds a device id to its first identity key).
    var identityKeys: [String: String]
}

extension ClientDatabase {
    /// The local schema of encrypted conversations (issue 55): a message's envelope, what this
    /// device made of it and its attachments' keys (the text column holds the decrypted copy);
    /// the encrypted mark of conversations and groups; the sealed copy of a pending attachment;
    /// this device and the users sealed to.
    static let encryptionMigrations: [SQLiteStore.Migration] = [
        .init(
            name: "v8-encrypted-conversations",
            sql: """
                ALTER TABLE messages ADD COLUMN envelope TEXT;
                ALTER TABLE messages ADD COLUMN verification TEXT;
                ALTER TABLE messages ADD COLUMN mediaKeys TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE conversations ADD COLUMN encrypted INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE groups ADD COLUMN encrypted INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE pending_attachments ADD COLUMN sealedPath TEXT;
                ALTER TABLE pending_attachments ADD COLUMN sealedKey TEXT;
                CREATE TABLE this_device (
                    id TEXT PRIMARY KEY, deviceId TEXT NOT NULL, name TEXT NOT NULL, encryptionKey TEXT NOT NULL,
                    keySince TEXT NOT NULL, registered INTEGER NOT NULL);
                CREATE TABLE known_users (id TEXT PRIMARY KEY, userId TEXT, identityKeys TEXT NOT NULL DEFAULT '{}');
                """)
    ]
}
