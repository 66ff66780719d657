/// Web Push notifications (API.md part 4): the server's VAPID key and the viewer's browser
/// subscriptions.
extension APIRoute {
    public static let pushKey = APIRoute(.get, "/v1/push/key", requiresAuth: false)
    public static let pushSubscriptions = APIRoute(.get, "/v1/me/push-subscriptions")
    public static let putPushSubscription = APIRoute(.put, "/v1/me/push-subscriptions/{id}")
    public static let deletePushSubscription = APIRoute(.delete, "/v1/me/push-subscriptions/{id}")

    /// The push routes, in `all`.
    public static let push: [APIRoute] = [pushKey, pushSubscriptions, putPushSubscription, deletePushSubscription]
}
