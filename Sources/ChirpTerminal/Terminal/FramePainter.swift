import Foundation

/// Draws the app's frames on the terminal, one for any number of new states: `setNeedsFrame`
/// asks for a frame, drawn once the main actor is free (after the keys read so far are
/// handled), so keys typed while a frame is drawn never queue behind a frame each. Writes
/// only what changed since the last frame.
@MainActor
final class FramePainter {
    private let device: TerminalDevice
    private let noColor: Bool
    private let state: @MainActor () -> AppState
    private var last: Frame?
    private var pending = false
    private var stopped = false

    init(device: TerminalDevice, noColor: Bool, state: @escaping @MainActor () -> AppState) {
        self.device = device
        self.noColor = noColor
        self.state = state
    }

    /// Asks for a frame of the current state.
    func setNeedsFrame() {
        guard !pending else { return }
        pending = true
        Task { @MainActor in
            pending = false
            guard !stopped else { return }
            let size = device.size
            let frame = AppView.render(state(), width: size.width, height: size.height, noColor: noColor)
            guard frame != last else { return }
            device.write(FrameDiff.ansi(from: last, to: frame))
            last = frame
        }
    }

    /// Draws nothing more (the terminal is being given back).
    func stop() { stopped = true }
}
