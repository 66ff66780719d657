import ChirpModels
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a device's private keys live on Linux: `device-keys.json` in the signed-in user's
/// installation directory. The directory is created with mode 0700 and the file is written with
/// mode 0600 (a temporary file, fsynced, renamed over the old one, so a crash leaves either the
/// old keys or the new). A file that its group or others may read or write is refused.
///
/// The file is JSON: `{"version": 1, "deviceId", "identityKey", "encryptionKey",
/// "retiredKeys": [{"key", "replacedAt"}]}`, keys as their 32 raw bytes in base64url.
public struct DeviceKeyFile: Sendable {
    /// The file's name in its directory.
    public static let fileName = "device-keys.json"

    /// The directory holding the file.
    public let directory: URL

    /// The key file of the installation directory `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file's path.
    public var url: URL { directory.appendingPathComponent(Self.fileName) }

    /// The keys in the file; nil when there is no file yet.
    public func load() throws -> DeviceKeys? {
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw DeviceKeyFileError.system("stat \(path)", errno)
        }
        let mode = Int(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else { throw DeviceKeyFileError.permissionsTooOpen(path: path, mode: mode) }
        let contents = try Data(contentsOf: url)
        guard let stored = try? JSONDecoder().decode(StoredKeys.self, from: contents), stored.version == 1,
            let keys = stored.keys
        else { throw DeviceKeyFileError.unreadable(path: path) }
        return keys
    }

    /// Writes `keys` to the file, replacing what it held.
    public func save(_ keys: DeviceKeys) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let contents = try encoder.encode(StoredKeys(keys))
        let path = url.path
        let partial = path + ".partial"
        unlink(partial)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DeviceKeyFileError.system("open \(partial)", errno) }
        do {
            defer { close(descriptor) }
            // The umask only takes bits away; this makes the mode exactly 0600 whatever it is.
            guard fchmod(descriptor, 0o600) == 0 else { throw DeviceKeyFileError.system("fchmod \(partial)", errno) }
            var written = 0
            while written < contents.count {
                let step = contents.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if step < 0 { throw DeviceKeyFileError.system("write \(partial)", errno) }
                written += step
            }
            guard fsync(descriptor) == 0 else { throw DeviceKeyFileError.system("fsync \(partial)", errno) }
        } catch {
            unlink(partial)
            throw error
        }
        guard rename(partial, path) == 0 else {
            let code = errno
            unlink(partial)
            throw DeviceKeyFileError.system("rename \(partial)", code)
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// The file's JSON.
    private struct StoredKeys: Codable {
        struct Retired: Codable {
            var key: String
            var replacedAt: Timestamp
        }

        var version: Int
        var deviceId: String
        var identityKey: String
        var encryptionKey: String
        var retiredKeys: [Retired]

        init(_ keys: DeviceKeys) {
            version = 1
            deviceId = keys.deviceId
            identityKey = Base64URL.encode(keys.identityKey.rawRepresentation)
            encryptionKey = Base64URL.encode(keys.encryptionKey.rawRepresentation)
            retiredKeys = keys.retiredKeys.map {
                Retired(key: Base64URL.encode($0.key.rawRepresentation), replacedAt: $0.replacedAt)
            }
        }

        /// The keys; nil when one is not 32 bytes of base64url.
        var keys: DeviceKeys? {
            func key<Key>(_ text: String, _ make: (Data) throws -> Key) -> Key? {
                Base64URL.decode(text, count: 32).flatMap { try? make($0) }
            }
            guard let identity = key(identityKey, Curve25519.Signing.PrivateKey.init(rawRepresentation:)),
                let current = key(encryptionKey, Curve25519.KeyAgreement.PrivateKey.init(rawRepresentation:))
            else { return nil }
            var retired: [DeviceKeys.RetiredKey] = []
            for entry in retiredKeys {
                guard let old = key(entry.key, Curve25519.KeyAgreement.PrivateKey.init(rawRepresentation:)) else {
                    return nil
                }
                retired.append(DeviceKeys.RetiredKey(key: old, replacedAt: entry.replacedAt))
            }
            return DeviceKeys(deviceId: deviceId, identityKey: identity, encryptionKey: current, retiredKeys: retired)
        }
    }
}

/// Why a device key file could not be read or written.
public enum DeviceKeyFileError: Error, Equatable, CustomStringConvertible {
    /// The file's group or others may read or write it (`mode` is its permission bits): the keys
    /// may have leaked, so the file is not used. `chmod 600` it, or remove it and register the
    /// device anew.
    case permissionsTooOpen(path: String, mode: Int)
    /// The file is not a device key file.
    case unreadable(path: String)
    /// A system call failed with `errno`.
    case system(String, Int32)

    public var description: String {
        switch self {
        case .permissionsTooOpen(let path, let mode):
            "\(path) has mode \(String(mode, radix: 8)): group or others may read it, so its keys are not used"
        case .unreadable(let path): "\(path) is not a device key file"
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        }
    }
}
