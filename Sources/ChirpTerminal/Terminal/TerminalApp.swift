import ChirpModules
import ChirpStore
import Foundation

/// Runs the app in the terminal: one store, frames drawn for new states (`FramePainter`), keys
/// sent as actions as they are read, until the state says quit.
@MainActor
public enum TerminalApp {
    /// Runs until the user quits; `open` is a `chirp://` link to show first, resolved by the
    /// client's `router` (see `AppCoordinator`).
    public static func run(
        client: AppClient, router: Router, theme: Theme.Name, noColor: Bool, welcome: String? = nil,
        open link: URL? = nil
    ) async {
        let device = TerminalDevice()
        var client = client
        // The bell goes out the way frames do, on the main actor between them.
        client.bell = { await MainActor.run { device.write("\u{07}") } }
        var initial = AppState(now: client.now(), theme: theme)
        if let welcome { initial.banner = .init(welcome, isError: false) }
        let store = Store(initialState: initial, reducer: AppFeature(client: client))
        device.start()
        defer { device.restore() }
        let painter = FramePainter(device: device, noColor: noColor) { store.state }
        let token = store.observe { _ in painter.setNeedsFrame() }
        var rows = device.size.height
        store.send(.resized(rows: rows))
        store.send(.start)
        if let link, let action = await AppCoordinator(router: router).action(for: link) { store.send(action) }
        for await keys in device.keys() {
            if device.size.height != rows {
                rows = device.size.height
                store.send(.resized(rows: rows))
            }
            for key in keys { store.send(.key(key)) }
            if store.state.quit { break }
        }
        painter.stop()
        token.cancel()
    }
}
