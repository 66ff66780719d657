import Foundation

/// What the test push service knows: its subscriptions, how to answer each, what it received
/// and refused, and the requests it holds unanswered.
actor TestPushServiceState {
    var origin = ""
    private var subscriptions: [String: TestPushSubscription] = [:]
    private var answers: [String: TestPushAnswer] = [:]
    private(set) var received: [ReceivedPush] = []
    private(set) var refusals: [String] = []
    private var held: [CheckedContinuation<Void, Never>] = []
    private var stopped = false
    private var nextID = 1

    func setOrigin(_ origin: String) { self.origin = origin }

    func subscribe(applicationServerKey: String?) -> TestPushSubscription {
        let subscription = TestPushSubscription(
            id: "sub\(nextID)", origin: origin, applicationServerKey: applicationServerKey)
        nextID += 1
        subscriptions[subscription.id] = subscription
        return subscription
    }

    func subscription(_ id: String) -> TestPushSubscription? { subscriptions[id] }

    /// How to answer a push to subscription `id`; counts it as an attempt.
    func answer(for id: String) -> TestPushAnswer {
        attempts[id, default: 0] += 1
        return answers[id] ?? .accept
    }

    /// Requests for each subscription that reached the answer, whatever it was.
    private(set) var attempts: [String: Int] = [:]

    func setAnswer(_ answer: TestPushAnswer, for id: String) { answers[id] = answer }

    func record(_ push: ReceivedPush) { received.append(push) }

    func refuse(_ reason: String) { refusals.append(reason) }

    /// Waits until the service stops.
    func hold() async {
        guard !stopped else { return }
        await withCheckedContinuation { held.append($0) }
    }

    func stop() {
        stopped = true
        for continuation in held { continuation.resume() }
        held = []
    }
}
