import ChirpModules
import ChirpStore
import Foundation

/// Runs the app in the terminal: one store, a frame rendered for every new state and written
/// as a diff against the last one (all of it after a resize), keys sent as actions, until the
/// state says quit.
@MainActor
public enum TerminalApp {
    /// Runs until the user quits; `open` is a `chirp://` link to show first, resolved by the
    /// client's `router` (see `AppCoordinator`).
    public static func run(
        client: AppClient, router: Router, theme: Theme.Name, noColor: Bool, welcome: String? = nil, open link: URL? = nil
    ) async {
        let device = TerminalDevice()
        var initial = AppState(now: client.now(), theme: theme)
        if let welcome { initial.banner = .init(welcome, isError: false) }
        let store = Store(initialState: initial, reducer: AppFeature(client: client))
        device.start()
        defer { device.restore() }
        var last: Frame?
        let token = store.observe { state in
            let size = device.size
            let frame = AppView.render(state, width: size.width, height: size.height, noColor: noColor)
            if frame != last {
                device.write(FrameDiff.ansi(from: last, to: frame))
                last = frame
            }
        }
        store.send(.start)
        if let link, let action = await AppCoordinator(router: router).action(for: link) { store.send(action) }
        for await key in device.keys() {
            store.send(.key(key))
            if store.state.quit { break }
        }
        token.cancel()
    }
}
