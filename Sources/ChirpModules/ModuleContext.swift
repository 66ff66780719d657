/// What a module gets when it loads: the manager (to resolve other modules' services) and
/// the app's router (to register its routes), plus any app values the app chose to share.
public struct ModuleContext: Sendable {
    public let manager: ModuleManager
    public let router: Router

    /// A context for modules of `manager` registering on `router`.
    public init(manager: ModuleManager, router: Router) {
        self.manager = manager
        self.router = router
    }
}
