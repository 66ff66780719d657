import Synchronization

/// Broadcasts to many delegates without keeping them alive: delegates are held weakly,
/// released ones are dropped, and adding, removing and invoking are safe from any thread.
///
/// ```swift
/// let listeners = MulticastDelegate<ConnectionListener>()
/// listeners.add(screen)
/// listeners.invoke { $0.connectionDidChange(.online) }
/// ```
public final class MulticastDelegate<Delegate>: Sendable {
    private struct WeakBox: @unchecked Sendable {
        weak var object: AnyObject?
    }

    private let boxes = Mutex<[WeakBox]>([])

    /// An empty set of delegates.
    public init() {}

    /// Adds a delegate (a class instance); adding one twice keeps one entry.
    public func add(_ delegate: Delegate) {
        let object = delegate as AnyObject
        boxes.withLock { boxes in
            boxes.removeAll { $0.object == nil }
            if !boxes.contains(where: { $0.object === object }) { boxes.append(WeakBox(object: object)) }
        }
    }

    /// Removes a delegate.
    public func remove(_ delegate: Delegate) {
        let object = delegate as AnyObject
        boxes.withLock { $0.removeAll { $0.object == nil || $0.object === object } }
    }

    /// Calls `body` on every live delegate, in the order they were added. The lock is not held
    /// during the calls, so a delegate may add or remove delegates.
    public func invoke(_ body: (Delegate) throws -> Void) rethrows {
        let live = boxes.withLock { boxes -> [AnyObject] in
            boxes.removeAll { $0.object == nil }
            return boxes.compactMap(\.object)
        }
        for object in live {
            if let delegate = object as? Delegate { try body(delegate) }
        }
    }

    /// Number of live delegates.
    public var count: Int {
        boxes.withLock { boxes in
            boxes.removeAll { $0.object == nil }
            return boxes.count
        }
    }

    /// Whether there is no live delegate.
    public var isEmpty: Bool { count == 0 }
}
