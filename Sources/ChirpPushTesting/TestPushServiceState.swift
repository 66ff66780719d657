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

    func answer(for id: String) -> TestPushAnswer { answers[id] ?? .accept }

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
