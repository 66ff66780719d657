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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        #expect(file >= 0)
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: executable), arguments: arguments,
            environment: ProcessInfo.processInfo.environment, output: file)
        close(file)
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        #expect(process.terminationStatus == 0)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func aChildHoldsNoDescriptorButItsStandardOnes() async throws {
        // Sockets and files this process has open, without close-on-exec, while it spawns.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let fileFD = open("/dev/null", O_RDONLY)
        defer { close(socketFD); close(fileFD) }
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

    @Test func temporaryFilesGoToTheRunsOwnDirectory() throws {
        let run = String(cString: chirp_test_run_directory())
        #expect(run.hasSuffix("/chirp-test-run-\(getpid())"))
        #expect(FileManager.default.fileExists(atPath: run))
        #expect(ProcessInfo.processInfo.environment["TMPDIR"] == run)
        #expect(FileManager.default.temporaryDirectory.path.hasPrefix(run))
        #expect(ServerProcess.temporaryDirectory().path.hasPrefix(run))
    }
}
