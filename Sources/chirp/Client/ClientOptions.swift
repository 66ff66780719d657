import ArgumentParser
import Foundation

/// Options every client command shares: which server, and where the client keeps its files.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Chirp server URL (env CHIRP_SERVER).", valueName: "url"))
    var server: String = EnvironmentVariable.value("CHIRP_SERVER") ?? "http://127.0.0.1:8080"

    @Option(help: ArgumentHelp("Client directory (env CHIRP_HOME).", valueName: "dir"))
    var home: String = EnvironmentVariable.value("CHIRP_HOME") ?? (NSHomeDirectory() + "/.chirp")

    @Option(help: ArgumentHelp("Session token (env CHIRP_TOKEN) until `chirp login` keeps one.", valueName: "token"))
    var token: String?

    /// `--token`, else `CHIRP_TOKEN`.
    var sessionToken: String? { token ?? EnvironmentVariable.value("CHIRP_TOKEN") }

    var serverURL: URL {
        get throws {
            guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--server takes a URL such as http://127.0.0.1:8080")
            }
            return url
        }
    }

    var logsDirectory: URL { URL(fileURLWithPath: home).appendingPathComponent("logs") }
}
