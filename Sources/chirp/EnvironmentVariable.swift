import Foundation

/// One environment variable, read as it is now with `getenv`.
///
/// `ProcessInfo.processInfo.environment` copies the whole environment into a dictionary on
/// every call, and argument parsing makes the option groups whose defaults read it many times
/// per start: a tenth of the samples in a profile of a debug `chirp` command's start-up, which
/// the tests pay in each of their several hundred child processes.
enum EnvironmentVariable {
    /// The variable's value; nil when it is not set.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
