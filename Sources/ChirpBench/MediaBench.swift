import ArgumentParser
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp bench media`: upload and download throughput of one file over loopback against a
/// child `chirp serve`, through the media routes (`PUT`/`GET /v1/media/…`: auth, hashing,
/// fsync, rename, a row; access check, ETag) and, in the same run and the same server, through
/// a plain file route that only moves bytes (`--bench-static-file`, hidden: `GET` serves the
/// file, `PUT` writes the body to a file). curl does every transfer, so the client is the same
/// on both sides.
struct MediaBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media", abstract: "Media upload/download throughput beside a plain file route (curl, loopback).")

    @Option(help: "File size in MiB.") var mebibytes = 10
    @Option(help: "Transfers of each kind (the median is reported).") var rounds = 5

    func run() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chirp-media-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("payload.bin")
        var generator = SystemRandomNumberGenerator()
        FileManager.default.createFile(
            atPath: file.path,
            contents: Data((0..<(mebibytes << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        let server = try await ChildServer(arguments: [
            "serve", "--port", "0", "--data-dir", work.appendingPathComponent("data").path, "--no-rate-limits",
            "--log-level", "error",
            "--bench-static-file", file.path, "--max-media-bytes", String((mebibytes + 1) << 20),
        ])
        defer { Task { await server.stop() } }
        let base = server.baseURL.absoluteString
        let name = "bench\(Int.random(in: 1000...9999))"
        let register = try curl(
            [
                "-X", "POST", "-H", "Content-Type: application/json",
                "--data", #"{"username":"\#(name)","password":"bench password"}"#, base + "/v1/accounts",
            ], output: true)
        let token = try JSONDecoder().decode(AuthResponse.self, from: Data(register.utf8)).token
        let auth = ["-H", "Authorization: Bearer \(token)"]

        var mediaId = ""
        var results: [(String, [Double])] = []
        func measure(_ label: String, _ arguments: () throws -> [String]) throws {
            var speeds: [Double] = []
            for _ in 0..<rounds {
                speeds.append(
                    Double(
                        try curl(try arguments() + ["-w", "%{speed_upload} %{speed_download}"])
                            .split(separator: " ").compactMap { Double($0) }.max() ?? 0))
            }
            results.append((label, speeds))
        }
        try measure("upload   plain PUT /bench/static") { ["-T", file.path, "-H", "Expect:", base + "/bench/static"] }
        try measure("upload   PUT /v1/media/{id}") {
            ["-T", file.path, "-H", "Expect:", "-H", "Content-Type: application/octet-stream"] + auth + [
                base + "/v1/media/\(UUID().uuidString)"
            ]
        }
        let uploaded = try curl(["-T", file.path, "-H", "Expect:"] + auth + [base + "/v1/media/final"], output: true)
        mediaId = try JSONDecoder().decode(Media.self, from: Data(uploaded.utf8)).id
        try measure("download plain GET /bench/static") { ["-o", "/dev/null", base + "/bench/static"] }
        try measure("download GET /v1/media/{id}") { ["-o", "/dev/null"] + auth + [base + "/v1/media/\(mediaId)"] }

        print("chirp bench media: \(mebibytes) MiB over loopback, curl, median of \(rounds)")
        var medians: [String: Double] = [:]
        for (label, speeds) in results {
            let median = speeds.sorted()[speeds.count / 2]
            medians[label] = median
            print(
                "  " + label.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(format: "%8.1f MiB/s", median / 1_048_576))
        }
        let up =
            (medians["upload   PUT /v1/media/{id}"] ?? 0) / max(1, medians["upload   plain PUT /bench/static"] ?? 1)
        let down =
            (medians["download GET /v1/media/{id}"] ?? 0) / max(1, medians["download plain GET /bench/static"] ?? 1)
        print(
            String(format: "  media / plain: upload %.0f %%, download %.0f %% (target ≥ 70 %%)", up * 100, down * 100))
    }

    /// Runs curl quietly; returns its standard output.
    private func curl(_ arguments: [String], output: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["-s", "-S", "--fail-with-body"] + (output || arguments.contains("-o") ? [] : ["-o", "/dev/null"])
            + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure("curl failed (\(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
