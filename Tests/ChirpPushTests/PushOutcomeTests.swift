import ChirpNetworking
import ChirpPush
import Foundation
import Testing

/// How a push service's answer is read.
@Suite("Push outcome")
struct PushOutcomeTests {
    @Test(arguments: [200, 201, 202]) func deliveredStatuses(status: Int) {
        #expect(PushOutcome.of(status: status, retryAfter: nil, reason: "") == .delivered)
    }

    @Test(arguments: [404, 410]) func goneStatuses(status: Int) {
        #expect(PushOutcome.of(status: status, retryAfter: nil, reason: "") == .gone(status: status))
    }

    @Test(arguments: [429, 500, 502, 503]) func retriedStatuses(status: Int) {
        #expect(
            PushOutcome.of(status: status, retryAfter: .seconds(5), reason: "r")
                == .retry(after: .seconds(5), reason: "r"))
    }

    @Test(arguments: [400, 401, 403, 413, 415, 301]) func rejectedStatuses(status: Int) {
        #expect(PushOutcome.of(status: status, retryAfter: nil, reason: "r") == .rejected(status: status, reason: "r"))
    }

    @Test func retryAfterIsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfterHeader.delay(from: "120", now: now) == .seconds(120))
        #expect(RetryAfterHeader.delay(from: "Wed, 21 Oct 2015 07:30:00 GMT", now: now) == .seconds(120))
        #expect(RetryAfterHeader.delay(from: "Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
        #expect(RetryAfterHeader.delay(from: "-3", now: now) == nil)
        #expect(RetryAfterHeader.delay(from: "soon", now: now) == nil)
    }
}
