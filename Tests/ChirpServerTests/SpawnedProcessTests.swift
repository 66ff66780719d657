import CChirpTestRun
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one way tests start processes: children inherit only their standard descriptors, are
/// set to die with the test process, and the test process's temporary files live in a
/// directory of its own.
@Suite("Spawned processes and the run's directory")
struct SpawnedProcessTests {
    /// Runs `executable arguments` to completion and returns what it printed.
    static func output(of executable: String, _ arguments: [String]) async throws -> String {
        let ran = try await SpawnedProcess.run(URL(fileURLWithPath: executable), arguments)
        #expect(ran.status == 0 && ran.reason == .exit)
        return ran.output
    }

    @Test func noTestStartsAProcessWithFoundationsProcess() throws {
        // Foundation's `Process` crashed a test run (copying the environment in `run()`), and
        // its children outlive a crashed test process. Only `SpawnedProcess` starts processes.
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var offenders: [String] = []
        var scanned = 0
        for case let file as URL in files
        where file.pathExtension == "swift" && file.lastPathComponent != "SpawnedProcessTests.swift" {
            scanned += 1
            let source = try String(contentsOf: file, encoding: .utf8)
            if source.contains(" Process()") || source.contains("Foundation.Process") {
                offenders.append(file.lastPathComponent)
            }
        }
        #expect(scanned > 50, "the test sources were found")
        #expect(offenders.isEmpty, "use SpawnedProcess.run in \(offenders)")
    }

    @Test func aChildHoldsNoDescriptorButItsStandardOnes() async throws {
        // Sockets and files this process has open, without close-on-exec, while it spawns.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let fileFD = open("/dev/null", O_RDONLY)
        defer {
            close(socketFD)
            close(fileFD)
        }
        #expect(socketFD > 2 && fileFD > 2)
        // The shell lists its own descriptors (`; true` keeps it from exec'ing `ls` in its place).
        let listed = try await Self.output(of: "/bin/sh", ["-c", "ls /proc/$$/fd; true"])
        let descriptors = listed.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }.sorted()
        #expect(descriptors == [0, 1, 2], "the child's descriptors: \(listed)")
    }

    @Test func aChildIsSetToBeKilledWhenTheTestProcessEnds() async throws {
        // PR_GET_PDEATHSIG (2), read by the child itself.
        let script = "import ctypes; v = ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(v)); print(v.value)"
        let signal = try await Self.output(of: "/usr/bin/env", ["python3", "-c", script])
        #expect(signal.trimmingCharacters(in: .whitespacesAndNewlines) == String(SIGKILL))
    }

    @Test func aChildThatCannotStartIsAnErrorWithItsReason() throws {
        // The child reports exec's failure through the memory it shares with the spawner.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        #expect(throws: POSIXError(.ENOENT)) {
            try SpawnedProcess(
                executable: URL(fileURLWithPath: "/nonexistent/chirp"), arguments: [], environment: [:], output: null)
        }
        #expect(throws: POSIXError(.EACCES)) {
            try SpawnedProcess(executable: URL(fileURLWithPath: "/etc"), arguments: [], environment: [:], output: null)
        }
    }

    @Test func aChildRunsInAGroupOfItsOwnWithNoSignalBlocked() async throws {
        // Field 5 of /proc/self/stat is the process group; SigBlk in /proc/self/status the mask.
        let script =
            "import os; print(os.getpgrp() == os.getpid(), open('/proc/self/status').read().split('SigBlk:')[1].split()[0])"
        let printed = try await Self.output(of: "/usr/bin/env", ["python3", "-c", script])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "True 0000000000000000")
    }

    @Test func temporaryFilesGoToTheRunsOwnDirectory() throws {
        let run = String(cString: chirp_test_run_directory())
        #expect(run.hasSuffix("/chirp-test-run-\(getpid())"))
        #expect(FileManager.default.fileExists(atPath: run))
        #expect(ProcessInfo.processInfo.environment["TMPDIR"] == run)
        #expect(FileManager.default.temporaryDirectory.path.hasPrefix(run))
        #expect(ServerProcess.temporaryDirectory().path.hasPrefix(run))
    }
}
