import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real terminal: raw mode, the alternate screen, its size, keys as they are typed, and
/// writing frames. `restore()` (also run at exit) puts the terminal back as it was.
public final class TerminalDevice: @unchecked Sendable {
    private var original = termios()
    private var isRaw = false
    private let lock = NSLock()

    public init() {}

    /// Whether standard input and output are a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 }

    /// The terminal's size in columns and rows (80×24 if it cannot be read).
    public var size: (width: Int, height: Int) {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    /// Raw mode (no echo, no line editing, no signals from Ctrl-C: the app reads it as a key),
    /// the alternate screen, cursor hidden.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !isRaw else { return }
        tcgetattr(STDIN_FILENO, &original)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        isRaw = true
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Leaves raw mode and the alternate screen.
    public func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard isRaw else { return }
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        isRaw = false
    }

    /// Writes bytes to the terminal at once.
    public func write(_ text: String) {
        var data = Array(text.utf8)
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeMutableBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 { break }
            offset += written
        }
    }

    /// Keys as they are typed, read on a thread of their own, until input ends: each element
    /// is what one read brought (several keys when they came faster than the app took them).
    public func keys() -> AsyncStream<[Key]> {
        AsyncStream { continuation in
            let thread = Thread {
                var decoder = KeyDecoder()
                var buffer = [UInt8](repeating: 0, count: 256)
                while true {
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count <= 0 { break }
                    let keys = decoder.feed(Array(buffer[0..<count]))
                    if !keys.isEmpty { continuation.yield(keys) }
                }
                continuation.finish()
            }
            thread.start()
        }
    }
}
