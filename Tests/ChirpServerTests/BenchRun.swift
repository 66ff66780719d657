import ChirpTestSupport
import Foundation
import Testing

/// A `chirp bench …` run in a temporary directory of its own (its `TMPDIR`), for the tests of
/// the benches that start their own server.
struct BenchRun {
    var status: Int32
    var output: String
    /// What the run left in its temporary directory (nothing, when it cleaned up).
    var left: [String]

    /// Runs `chirp ARGUMENTS`.
    init(_ arguments: [String]) async throws {
        (status, output, left) = try await withEmptyDirectory { temporary in
            let (status, output) = try await runChirpInBackground(arguments, environment: ["TMPDIR": temporary.path])
            let left = FileManager.default.enumerator(atPath: temporary.path)?.allObjects as? [String] ?? []
            return (status, output, left)
        }
    }

    /// The JSON report the run printed last (from its output's first `{`: a `--json` run).
    func report() throws -> [String: Any] {
        let json = String(output[try #require(output.firstIndex(of: "{"), "\(output)")...])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(output)")
    }
}
