import ChirpCommandSupport
import Synchronization

/// How a bench's sends of one kind were answered: stored (201), refused with 409
/// `devices_changed` (the bench's devices never change, so none is expected), or anything
/// else; the first refusal's body is kept when the sender saw it.
final class SendOutcomes: Sendable {
    let sent = Tally()
    let devicesChanged = Tally()
    let errors = Tally()
    private let firstRefusal = Mutex<String?>(nil)

    /// Counts an answer; whether it stored the message.
    @discardableResult
    func count(status: Int, body: String? = nil) -> Bool {
        switch status {
        case 201:
            sent.add()
            return true
        case 409 where body.map({ $0.contains("devices_changed") }) ?? true:
            devicesChanged.add()
        default:
            errors.add()
        }
        if let body { firstRefusal.withLock { $0 = $0 ?? "\(status) \(body.prefix(300))" } }
        return false
    }

    /// The first refused send's status and body, when the sender read it.
    var refusal: String? { firstRefusal.withLock { $0 } }
}
