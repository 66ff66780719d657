import ChirpNetworking
import Foundation
import Logging

/// A `ResponseValidator` that validates as `ErrorEnvelopeValidator` does and logs every reply
/// that says the server failed (a 5xx): a 500 is a bug on the server's side (an error), a 503 an
/// overload (information); an error is worth an entry in the client's reports even when a retry
/// then succeeds.
public struct ServerFailureLogger: ResponseValidator {
    private let validator: any ResponseValidator
    private let logger: Logger

    /// Wraps `validator`, logging through a `Logger` labelled `chirp.network`.
    public init(
        _ validator: any ResponseValidator = ErrorEnvelopeValidator(), logger: Logger = Logger(label: "chirp.network")
    ) {
        self.validator = validator
        self.logger = logger
    }

    public func validate(_ response: TransportResponse) throws(NetworkError) {
        do {
            try validator.validate(response)
        } catch {
            if response.status >= 500 {
                var metadata: Logger.Metadata = ["status": "\(response.status)"]
                if let requestId = response.header("X-Request-Id") { metadata["request_id"] = "\(requestId)" }
                // A 503 is an overload the retry rides out (information); anything else is a bug (error).
                let level: Logger.Level = response.status == 503 ? .info : .error
                logger.log(level: level, "the server failed a request: \(error)", metadata: metadata)
            }
            throw error
        }
    }
}
