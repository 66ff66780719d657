import ChirpClient
import ChirpLogging
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The whole reporting path with real processes: a client logs, is killed, the next run uploads
/// to a real server, and the operator reads the entries back.
@Suite("Error reports survive a crash")
struct LogReportingTests {
    @Test func fatalEntriesArriveExactlyOnceAfterSIGKILL() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let api = ChirpAPIClient(baseURL: server.baseURL)
        try await api.register("crashy", password: "crashy-password")
        let token = try #require(api.token)
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = ["--server", server.baseURL.absoluteString, "--home", home.path, "--token", token]

        // 1. A client logs 40 errors with a fatal after every 7th, keeps up to 10 in memory,
        //    never reaches its upload waterline, and is killed.
        let outputURL = home.appendingPathExtension("out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        // Spawned closing inherited descriptors, as every child of the tests is.
        let emitter = try SpawnedProcess(
            executable: ServerProcess.binaryURL,
            arguments: [
                "logs", "emit", "--errors", "40", "--fatal-every", "7", "--max-memory", "10", "--waterline", "1000",
                "--hang",
            ] + client,
            environment: ProcessInfo.processInfo.environment, output: output.fileDescriptor)
        try output.close()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline,
            !((try? String(contentsOf: outputURL, encoding: .utf8)) ?? "").contains("logged")
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        emitter.signal(SIGKILL)
        while emitter.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        #expect(emitter.terminationReason == .uncaughtSignal)

        // 2. The next run uploads what is on disk, twice: the second finds nothing left.
        let upload = try await runChirp(["logs", "upload"] + client)
        #expect(upload.status == 0, "\(upload.output)")
        #expect(try await runChirp(["logs", "upload"] + client).output.contains("uploaded 0 waiting entries"))

        // 3. The operator reads them back.
        let admin = try await runChirp(["admin", "logs", "--data-dir", server.dataDirectory.path])
        #expect(admin.status == 0, "\(admin.output)")
        let lines = admin.output.split(separator: "\n").map(String.init)
        let fatals = lines.filter { $0.contains(" FATAL crashy [chirp.emit] fatal after error ") }
        #expect(
            fatals.count == 5 && Set(fatals.map { $0.split(separator: " ").last! }).count == 5,
            "each fatal exactly once")
        let errors = lines.filter { $0.contains(" ERROR crashy [chirp.emit] error ") }
        #expect(Set(errors).count == errors.count, "no error stored twice")
        #expect(errors.count >= 40 - 10, "errors lose at most the in-memory window: \(errors.count) of 40 arrived")
        #expect(errors.count == 35, "everything up to the last fatal (error 34) was on disk")
        let onlyFatal = try await runChirp([
            "admin", "logs", "--data-dir", server.dataDirectory.path, "--level", "fatal",
        ])
        #expect(onlyFatal.output.split(separator: "\n").count == 5)
        try await server.stop(signal: SIGTERM)
    }

    /// The product's path: a client run (any command) logs an error through swift-log and is
    /// killed with SIGKILL right after the call returned; the next client run reports it.
    @Test func anErrorLoggedJustBeforeSIGKILLArrivesWithTheNextRun() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = ["--server", server.baseURL.absoluteString, "--home", home.path]
        #expect(try await runChirp(["register", "killed"] + client, input: "killed-password\n").status == 0)

        // No flush, no wait: "logged" is printed right after the log call returns.
        let emitter = try ChirpProcess(["logs", "emit", "--product", "--errors", "1", "--hang"] + client)
        #expect(try await emitter.waitFor(timeout: .seconds(30)) { $0.contains("logged") })
        await emitter.stop(signal: SIGKILL)
        #expect(emitter.process.terminationReason == .uncaughtSignal)

        // The next run of any client command uploads it.
        #expect(try await runChirp(["whoami"] + client).status == 0)
        let lines = try await adminLines(
            server, until: { $0.contains { $0.contains(" ERROR killed [chirp.emit] error 0") } })
        #expect(lines.filter { $0.contains(" ERROR killed [chirp.emit] error 0") }.count == 1, "\(lines)")
        try await server.stop(signal: SIGTERM)
    }

    /// Two client processes at once (the app in one terminal, a command in another) keep their
    /// entries apart; both are killed; the next run reports both, each once.
    @Test func clientProcessesRunningAtOnceLoseNothing() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = ["--server", server.baseURL.absoluteString, "--home", home.path]
        #expect(try await runChirp(["register", "twice"] + client, input: "twice-password\n").status == 0)

        var emitters: [ChirpProcess] = []
        for index in 0..<2 {
            let emitter = try ChirpProcess(
                ["logs", "emit", "--product", "--errors", String(index + 1), "--hang"] + client)
            #expect(try await emitter.waitFor(timeout: .seconds(30)) { $0.contains("logged") })
            emitters.append(emitter)
        }
        let logs = home.appendingPathComponent("logs")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logs.path).contains { $0.hasPrefix("process-") },
            "the second has a directory of its own")
        for emitter in emitters { await emitter.stop(signal: SIGKILL) }

        #expect(try await runChirp(["whoami"] + client).status == 0)
        let lines = try await adminLines(
            server, until: { $0.filter { $0.contains(" ERROR twice [chirp.emit] ") }.count >= 3 })
        let errors = lines.filter { $0.contains(" ERROR twice [chirp.emit] ") }
        #expect(
            errors.count == 3 && Set(errors).count == 3,
            "error 0 from the first, errors 0 and 1 from the second: \(lines)")
        try await server.stop(signal: SIGTERM)
    }

    /// A crash (SIGSEGV) is written by the signal handler and reported by the next run, once.
    @Test func aCrashIsReportedByTheNextRun() async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let client = ["--server", server.baseURL.absoluteString, "--home", home.path]
        #expect(try await runChirp(["register", "crasher"] + client, input: "crasher-password\n").status == 0)

        // Without the Swift runtime's backtracer: the recorder's handler writes its line before it
        // hands the signal on, so what is tested is the same, and symbolicating the debug binary
        // took 16 s (7 s of CPU) of this test.
        let crashed = try await runChirpInBackground(
            ["logs", "emit", "--product", "--errors", "0", "--crash"] + client,
            environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(crashed.status != 0)
        #expect(try await runChirp(["whoami"] + client).status == 0)
        #expect(try await runChirp(["whoami"] + client).status == 0)  // collected once, not again
        let lines = try await adminLines(server, until: { $0.contains { $0.contains("SIGSEGV") } })
        let crashes = lines.filter { $0.contains(" FATAL crasher [chirp.crash] the process crashed: SIGSEGV") }
        #expect(crashes.count == 1, "\(lines)")
        #expect(crashes.first?.contains("command=chirp logs emit") == true)
        try await server.stop(signal: SIGTERM)
    }

    /// `chirp admin logs` on the server's data, polled until `done` holds (or 60 s pass).
    func adminLines(_ server: ServerProcess, until done: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let admin = try await runChirp(["admin", "logs", "--data-dir", server.dataDirectory.path])
            let lines = admin.output.split(separator: "\n").map(String.init)
            if done(lines) || ContinuousClock.now > deadline { return lines }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func adminCommandsSayWhatToDo() async throws {
        let missing = try await runChirp(["admin", "logs", "--data-dir", "/nonexistent/chirp-data"])
        #expect(missing.status != 0 && missing.output.contains("pass the --data-dir the server uses"))
        let badLevel = try await runChirp(["admin", "logs", "--level", "loud"])
        #expect(badLevel.status != 0 && badLevel.output.contains("--level takes"))
        let unreachable = try await runChirp([
            "logs", "upload", "--home", ServerProcess.temporaryDirectory().path, "--token", "t", "--server",
            "http://127.0.0.1:9",
        ])
        #expect(
            unreachable.status == 0 && unreachable.output.contains("uploaded 0"), "nothing waiting: nothing to send")
        let noToken = try await runChirp(["logs", "upload", "--home", "/tmp/none"])
        #expect(noToken.status != 0 && noToken.output.contains("--token"))
    }
}
