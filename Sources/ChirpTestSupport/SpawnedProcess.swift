import CChirpTestRun
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process that inherits nothing but its standard input, output and error, and that
/// ends with the test process, however the test process ends. Every process a test starts is
/// started here (`ServerProcess`, `ChirpProcess`, `runChirp`, tmux, nginx).
///
/// - Nothing else is inherited: the child closes every descriptor from 3 up before it execs.
///   SwiftNIO opens its sockets without close-on-exec, and a child that held copies of other
///   tests' sockets kept them open for its whole life (closing one sent no FIN).
/// - The child gets `SIGKILL` when the test process ends, crashes included (`PR_SET_PDEATHSIG`,
///   set by `chirp_test_spawn` in the child before it execs: see `CChirpTestRun`). A crashed test
///   process once left 30 `chirp serve` children running.
/// - It runs in a process group of its own, as Foundation's `Process` would.
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
    public init(executable: URL, arguments: [String], environment: [String: String], input: Int32, output: Int32) throws
    {
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = chirp_test_spawn(executable.path, argv, envp, input, output, &pid)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        processIdentifier = pid
    }

    /// Starts the process with `/dev/null` as standard input.
    public convenience init(executable: URL, arguments: [String], environment: [String: String], output: Int32) throws {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        try self.init(
            executable: executable, arguments: arguments, environment: environment, input: null, output: output)
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

    /// Sends `signal` to the process if it has not been reaped yet; returns whether it was sent.
    /// The check and the signal happen under the lock that reaping takes, so the signal cannot
    /// reach a stranger: a pid is reused only after its process is reaped, and this machine's
    /// pids wrap (`kernel.pid_max` 32,768) during a test run. Every signal a test sends to a
    /// child goes through here, never through `kill(processIdentifier, …)`.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard ended == nil else { return false }
        return kill(processIdentifier, signal) == 0
    }

    /// Waits for the process to exit (blocking this thread; poll `isRunning` from async code).
    /// A process still running after `limit` is killed (SIGKILL), so no wait in a test is
    /// endless; returns false when it had to be.
    @discardableResult
    public func waitUntilExit(killingAfter limit: Duration = .seconds(60)) -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning {
            if ContinuousClock.now >= deadline {
                signal(SIGKILL)
                while isRunning { usleep(5_000) }
                return false
            }
            usleep(5_000)
        }
        return true
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
        if signal(SIGKILL) { waitUntilExit() }
    }
}
