import ChirpCommandSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a password: from a prompt with echo off on a terminal, else one line of standard
/// input (for scripts: `echo "$PASSWORD" | chirp login alice`).
enum PasswordReader {
    /// Whether passwords come from a prompt (a terminal) rather than lines of standard input.
    static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 }

    static func read(prompt: String = "Password: ") throws -> String {
        let password: String?
        if isatty(STDIN_FILENO) != 0 {
            password = getpass(prompt).map { String(cString: $0) }
        } else {
            password = readLine(strippingNewline: true)
        }
        guard let password, !password.isEmpty else {
            throw CommandFailure("no password given: type it at the prompt, or pipe it on standard input")
        }
        return password
    }
}
