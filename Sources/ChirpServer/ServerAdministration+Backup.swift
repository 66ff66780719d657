import Foundation

extension ServerAdministration {
    /// Backs up the SQLite database and media of the server `configuration` names into
    /// `destination`, while the server runs (`SQLiteBackup`). Blobs already in `destination`
    /// from an earlier backup are not copied again.
    public static func backup(configuration: ServerConfiguration, to destination: URL) throws -> BackupReport {
        try SQLiteBackup(configuration: configuration, layout: BackupLayout(root: destination)).run()
    }

    /// Checks the backup in `source` and puts it into the data directory `configuration`
    /// names, whose server must be stopped (`SQLiteRestore`). A backup that fails its check
    /// changes nothing.
    public static func restore(from source: URL, configuration: ServerConfiguration) throws -> RestoreReport {
        try SQLiteRestore(source: BackupLayout(root: source), configuration: configuration).run()
    }
}
