import ChirpNetworking
import Foundation
import Synchronization

struct Profile: Codable, Sendable, Equatable {
    var name: String
    var age: Int
}

struct GetProfile: Endpoint {
    typealias Response = Profile
    var name = "alice"
    var path: String { "/v1/users/\(name)" }
    var query: [(name: String, value: String)] { [("fields", "all"), ("q", "a b&c")] }
}

struct CreateProfile: Endpoint {
    typealias Response = Profile
    var method: HTTPMethod { .post }
    var path: String { "/v1/users" }
    var body: Profile? { Profile(name: "bob", age: 3) }
}

struct PutThing: Endpoint {
    typealias Response = EmptyResponse
    var method: HTTPMethod { .put }
    var path: String { "/v1/things/1" }
    var headers: [String: String] { ["X-Custom": "yes", "Accept": "text/plain"] }
    var retryPolicy: RetryPolicy { RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(100), jitter: 0) }
}

/// Records the waits an `APIClient` asks for, without waiting.
final class SleepRecorder: Sendable {
    private let waits = Mutex<[Duration]>([])
    var recorded: [Duration] { waits.withLock { $0 } }
    var sleep: @Sendable (Duration) async throws -> Void {
        { duration in
            self.waits.withLock { $0.append(duration) }
            try Task.checkCancellation()
        }
    }
}

func makeClient(
    _ mock: MockTransport, sleeper: SleepRecorder = SleepRecorder(), random: Double = 0.5,
    credentials: @escaping @Sendable () -> [String: String] = { [:] }, base: String = "http://api.test/base"
) -> APIClient {
    APIClient(
        server: Server(baseURL: URL(string: base)!), transport: mock, timeout: .seconds(5),
        credentials: credentials, sleep: sleeper.sleep, random: { random })
}

let aliceJSON = #"{"name":"alice","age":30}"#
