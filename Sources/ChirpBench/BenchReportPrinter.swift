import Foundation

/// Prints a bench's report: as sorted, indented JSON with `--json`, else as its lines.
enum BenchReportPrinter {
    static func print<Report: Encodable>(_ report: Report, json: Bool, lines: () -> [String]) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            Swift.print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for line in lines() { Swift.print(line) }
        }
    }
}
