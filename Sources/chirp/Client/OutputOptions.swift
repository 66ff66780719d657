import ArgumentParser
import Foundation

/// `--json`: print data as JSON instead of lines of text.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the result as JSON.")
    var json = false

    /// Prints `value` as pretty JSON (keys sorted), or `lines()` as text.
    func emit<T: Encodable>(_ value: T, lines: () -> [String]) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(value), as: UTF8.self))
        } else {
            for line in lines() { print(line) }
        }
    }
}
