import ChirpTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx in front of Chirp instances on loopback, run in the foreground as a child process
/// with `docs/chirp-nginx.conf` (its ports replaced) inside a minimal main configuration.
final class NginxProcess: @unchecked Sendable {
    struct StartError: Error, CustomStringConvertible { var description: String }

    /// The nginx binary: `$NGINX`, else the first of /usr/sbin/nginx and `$PATH` that exists.
    static var binaryPath: String? {
        if let path = ProcessInfo.processInfo.environment["NGINX"] { return path }
        let candidates =
            ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/nginx" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The example configuration the documentation shows.
    static var exampleConfigURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/chirp-nginx.conf")
    }

    let port: Int
    let prefix: URL
    private var process: SpawnedProcess?

    /// Starts nginx on `port`, balancing over `upstreams` (the example has two).
    init(port: Int, upstreams: [Int]) async throws {
        guard let binary = Self.binaryPath else { throw StartError(description: "nginx is not installed") }
        precondition(upstreams.count == 2, "the example configuration lists two instances")
        self.port = port
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("chirp-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let example = try String(contentsOf: Self.exampleConfigURL, encoding: .utf8)
        let site =
            example
            .replacingOccurrences(of: "listen 127.0.0.1:8080;", with: "listen 127.0.0.1:\(port);")
            .replacingOccurrences(of: "server 127.0.0.1:8081 ", with: "server 127.0.0.1:\(upstreams[0]) ")
            .replacingOccurrences(of: "server 127.0.0.1:8082 ", with: "server 127.0.0.1:\(upstreams[1]) ")
            .replacingOccurrences(
                of: "/var/log/nginx/chirp-access.log", with: prefix.appendingPathComponent("access.log").path)
        guard site != example else {
            throw StartError(description: "docs/chirp-nginx.conf no longer has the expected ports")
        }
        try site.write(to: prefix.appendingPathComponent("chirp.conf"), atomically: true, encoding: .utf8)
        let root = prefix.path
        let main = """
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                client_body_temp_path \(root)/body;
                proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi;
                uwsgi_temp_path \(root)/uwsgi;
                scgi_temp_path \(root)/scgi;
                include \(root)/chirp.conf;
            }
            """
        try main.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        // Spawned closing every inherited descriptor, so nginx holds none of the test's sockets.
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(devNull) }
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: binary),
            arguments: ["-p", root, "-c", "\(root)/nginx.conf", "-g", "daemon off;"],
            environment: ProcessInfo.processInfo.environment, output: devNull)
        self.process = process
        // Ready once it accepts connections.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                throw StartError(description: "nginx exited: \(errorLog)")
            }
            if Self.accepts(port: port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StartError(description: "nginx did not listen on \(port): \(errorLog)")
    }

    /// What nginx wrote to its access log (the example's format).
    var accessLog: String {
        (try? String(contentsOf: prefix.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
    }

    var errorLog: String {
        (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A free loopback port (bound, then released).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops nginx at once (SIGTERM, its fast shutdown, which does not wait for open
    /// WebSockets; SIGKILL if it lingers) and removes its files.
    func stop() {
        if let process, process.isRunning {
            process.signal(SIGTERM)
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            process.signal(SIGKILL)
        }
        try? FileManager.default.removeItem(at: prefix)
    }

    deinit { stop() }
}
