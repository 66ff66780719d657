import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process that inherits nothing but its standard input, output and error.
///
/// Foundation's `Process` on Linux closes the parent's descriptors in the child by listing
/// `/proc/self/fd` first and spawning after: a socket another thread opens in between, above
/// the highest one listed, is inherited (SwiftNIO opens sockets without close-on-exec). In a
/// test process that runs servers and clients on many threads, a child `chirp serve` then held
/// copies of sockets of unrelated tests for its whole life, and closing such a socket sent no
/// FIN: a stream test waited for a close that never came, and a server waited for clients that
/// had long gone. Here the child closes every descriptor from 3 up as part of the spawn itself
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), so nothing can slip through.
public final class SpawnedProcess: @unchecked Sendable {
    /// How the process ended.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public let processIdentifier: Int32
    private let lock = NSLock()
    private var ended: (status: Int32, reason: TerminationReason)?

    /// Starts `executable` with `arguments` and `environment` (the whole environment), its
    /// standard input from `input` and standard output and error to `output` (descriptors).
    public init(executable: URL, arguments: [String], environment: [String: String], input: Int32, output: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        try Self.closeFrom3(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))  // as Process does
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        processIdentifier = pid
    }

    /// Starts the process with `/dev/null` as standard input.
    public convenience init(executable: URL, arguments: [String], environment: [String: String], output: Int32) throws {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        try self.init(executable: executable, arguments: arguments, environment: environment, input: null, output: output)
    }

    /// `posix_spawn_file_actions_addclosefrom_np`, found at run time (Swift's Glibc module does
    /// not declare it).
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            throw POSIXError(.ENOSYS)  // glibc before 2.34
        }
        let result = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }

    /// Whether the process has not exited yet (reaps it when it has).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if ended != nil { return false }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
        ended = Self.decode(status)
        return false
    }

    /// Waits for the process to exit (blocking this thread; poll `isRunning` from async code).
    public func waitUntilExit() {
        while isRunning { usleep(5_000) }
    }

    /// The exit status, or the signal that ended it.
    public var terminationStatus: Int32 {
        lock.lock()
        defer { lock.unlock() }
        return ended?.status ?? -1
    }

    public var terminationReason: TerminationReason {
        lock.lock()
        defer { lock.unlock() }
        return ended?.reason ?? .exit
    }

    private static func decode(_ status: Int32) -> (Int32, TerminationReason) {
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, .exit) : (signal, .uncaughtSignal)
    }

    deinit {
        if isRunning {
            kill(processIdentifier, SIGKILL)
            waitUntilExit()
        }
    }
}
