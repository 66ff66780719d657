import ArgumentParser
import ChirpCommandSupport
import Foundation

/// `--json`: print data as JSON instead of lines of text.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    /// Prints `value` as pretty JSON (keys sorted), or `lines()` as text, each line escaped
    /// (`printLine`).
    func emit<T: Encodable>(_ value: T, lines: () -> [String]) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            printJSON(String(decoding: try encoder.encode(value), as: UTF8.self))
        } else {
            for line in lines() { printLine(line) }
        }
    }
}

/// `--limit N`: how many of the newest items a listing shows.
struct PageLimitOptions: ParsableArguments {
    @Option(help: "How many of the newest items to show (1–100).")
    var limit = 20

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit takes 1 to 100") }
    }
}
