import ChirpCommandSupport
import ChirpPushTesting
import Foundation

/// `chirp bench load --compare-dead-push N`: a push service on 127.0.0.1 that never answers,
/// and N subscriptions to it spread over the run's users (at most 10 each, the server's cap),
/// so every send's pushes go to a dead service.
struct DeadPushService {
    let service: TestPushService
    let count: Int

    static func start(subscriptions count: Int) async throws -> DeadPushService {
        DeadPushService(service: try await TestPushService.start(), count: count)
    }

    /// Subscribes the users, up to 10 each, until `count` subscriptions exist.
    func subscribe(_ accounts: [BenchAccount], through client: LoadClient) async throws {
        let perUser = 10
        guard count <= accounts.count * perUser else {
            throw CommandFailure(
                "\(count) push subscriptions need at least \(count / perUser) users (--users): 10 per user at most.")
        }
        var made = 0
        for account in accounts where made < count {
            for slot in 0..<min(perUser, count - made) {
                let subscription = await service.subscribe()
                await service.answer(.hang, for: subscription)
                let body = """
                    {"endpoint":"\(subscription.endpoint)","keys":{"p256dh":"\(subscription.p256dh)","auth":"\(subscription.auth)"},"preview":true}
                    """
                let reply = try await client.request(
                    .PUT, "/v1/me/push-subscriptions/bench\(slot)", token: account.token, json: body)
                guard reply.status == 201 else {
                    throw CommandFailure("a push subscription was refused: \(reply.status) \(reply.body.prefix(200))")
                }
                made += 1
            }
        }
    }

    /// How many push requests reached it (each held until the server gave up on it).
    func summary() async -> String {
        "\(count) push subscriptions to a push service that never answers; \(await service.totalAttempts()) pushes held"
    }

    func stop() async { await service.stop() }
}
