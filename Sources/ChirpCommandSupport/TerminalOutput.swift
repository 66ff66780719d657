import ChirpModels
import Foundation

// Where the commands write. A line for people goes through `TerminalText.escaped`, whatever
// it holds: names, messages, tweets, reports and log entries come from others, and none of
// their control characters, line breaks or bidi overrides reaches the terminal. A command
// that prints several lines prints each one; a line holds no line break of its own.
// JSON for programs is written as its encoder made it (`printJSON`).

/// Writes one line for people to standard output at once (unbuffered, so a pipe sees it
/// immediately), escaped.
package func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((TerminalText.escaped(line) + "\n").utf8))
}

/// Writes one line for people to standard error, escaped.
package func printError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
}

/// Writes JSON (which escapes control characters itself) to standard output as it is.
package func printJSON(_ json: String) {
    FileHandle.standardOutput.write(Data((json + "\n").utf8))
}
