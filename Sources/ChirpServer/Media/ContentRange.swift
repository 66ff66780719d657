import Foundation

/// A request's `Content-Range: bytes FIRST-LAST/TOTAL`: one part of a resumable upload.
struct ContentRange: Sendable {
    var first: Int64
    var last: Int64
    var total: Int64

    /// The part's length.
    var length: Int64 { last - first + 1 }

    /// Parses the header; nil when it is not of that form, is inverted, or ends past the total.
    init?(_ header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let slash = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard slash.count == 2, let total = Int64(slash[1]) else { return nil }
        let bounds = slash[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]) else { return nil }
        guard first >= 0, last >= first, last < total else { return nil }
        self.first = first
        self.last = last
        self.total = total
    }
}
