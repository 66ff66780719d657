import ChirpModels
import Synchronization

/// Wakes the listeners of a user's event stream after a commit appended to it, and hands them
/// live-only events (`typing`) that are never stored.
///
/// A commit's own events are handed over with the wake-up (`publish`), so a stream that is up
/// to date can send them without reading storage. They are only a shortcut: a listener that
/// finds a gap before them (another commit's events not handed over yet, a full buffer, a
/// wake-up from another instance) re-reads the stream from storage after its last seq, so a
/// wake-up that races with a read can never lose or reorder events.
final class EventHub: Sendable {
    private let listeners = Mutex<[Int64: [ObjectIdentifier: EventListener]]>([:])

    private let sweeping = Mutex(false)
    /// How often every listener is woken regardless, so a stream re-reads storage even if a
    /// wake-up were ever missed.
    let sweepPeriod: Duration
    /// The sweep wakes one slice of the listeners at a time, `sweepSlices` times a period, so
    /// each is still woken once a period but their re-reads are spread over it: all at once,
    /// 100,000 streams over six instances queued bursts of about 16,700 reads per instance
    /// ahead of the sends, which then missed their commit deadline (`chirp bench connections`).
    static let sweepSlices = 25
    /// The slice the next listener joins (listeners are dealt round the slices).
    private let nextSlice = Mutex(0)

    /// Where the sweep asks for the newest seq of its listeners' streams, so it wakes only the
    /// streams behind them (nil: it wakes every due listener, which then re-reads storage).
    private let streamHeads = Mutex<(@Sendable ([Int64]) async throws -> [Int64: Int64])?>(nil)

    init(sweepPeriod: Duration = .seconds(25)) { self.sweepPeriod = sweepPeriod }

    /// Gives the sweep the storage's stream heads (`EventStore.streamHeads`): one query a slice
    /// instead of one read per stream.
    func sweepAgainst(streamHeads heads: @escaping @Sendable ([Int64]) async throws -> [Int64: Int64]) {
        streamHeads.withLock { $0 = heads }
    }

    /// Registers a listener for `userId`; register before reading the stream, then `wait`, or
    /// pass `onWake`, which is then called (on any thread) instead of resuming a waiter.
    func listen(userId: Int64, onWake: (@Sendable () -> Void)? = nil) -> EventListener {
        // A long poll's listener (no `onWake`) waits for a few seconds with a timeout of its
        // own and reads storage when it ends: the sweep is for streams, and waking a long poll
        // early would only answer it empty.
        let slice: Int? =
            onWake == nil
            ? nil
            : nextSlice.withLock { next in
                defer { next = (next + 1) % Self.sweepSlices }
                return next
            }
        let listener = EventListener(userId: userId, sweepSlice: slice, onWake: onWake)
        listeners.withLock { $0[userId, default: [:]][ObjectIdentifier(listener)] = listener }
        startSweepingIfNeeded()
        return listener
    }

    /// Wakes every listener.
    func wakeAll() {
        let all = listeners.withLock { $0.values.flatMap(\.values) }
        for listener in all { listener.fireForReread() }
    }

    private func startSweepingIfNeeded() {
        let first = sweeping.withLock { sweeping -> Bool in
            defer { sweeping = true }
            return !sweeping
        }
        guard first else { return }
        let tick = sweepPeriod / Self.sweepSlices
        Task { [weak self] in
            var slice = 0
            var due = ContinuousClock.now + tick
            while true {
                try? await Task.sleep(until: due)
                guard let self else { return }
                // Every slice that came due while this task waited (a busy process wakes it
                // late), at most a period's worth: slices are never skipped or pushed back.
                var swept = 0
                while due <= .now, swept < Self.sweepSlices {
                    await self.sweep(slice: slice)
                    slice = (slice + 1) % Self.sweepSlices
                    due += tick
                    swept += 1
                }
                if due <= .now { due = .now + tick }
            }
        }
    }

    /// Sweeps one slice: of its listeners that have listened for at least a period (`now` is
    /// for tests), wakes those whose stream is behind storage's head; all of them if the heads
    /// cannot be read, or no heads were given. A stream reads storage when it starts, so a
    /// younger one has nothing to catch up on yet; its slice comes round again within the next
    /// period, so every stream is checked within two periods of starting and once a period
    /// after that.
    func sweep(slice: Int, now: ContinuousClock.Instant = .now) async {
        let period = sweepPeriod
        let due = listeners.withLock { table in
            table.values.flatMap { group in
                group.values.filter { $0.sweepSlice == slice && now - $0.listeningSince >= period }
            }
        }
        guard !due.isEmpty else { return }
        let heads: [Int64: Int64]?
        if let query = streamHeads.withLock({ $0 }) {
            heads = try? await query(Array(Set(due.map(\.userId))))
        } else {
            heads = nil
        }
        for listener in due where heads.map({ listener.isBehind(head: $0[listener.userId] ?? 0) }) ?? true {
            listener.fireForReread()
        }
    }

    /// Unregisters a listener.
    func remove(_ listener: EventListener) {
        listeners.withLock { table in
            table[listener.userId]?[ObjectIdentifier(listener)] = nil
            if table[listener.userId]?.isEmpty == true { table[listener.userId] = nil }
        }
    }

    /// Hands committed events to the listeners of their users and wakes them.
    func publish(_ appended: [AppendedEvent]) {
        guard !appended.isEmpty else { return }
        var byUser: [Int64: [StoredEvent]] = [:]
        for item in appended { byUser[item.userId, default: []].append(item.event) }
        var woken: [(EventListener, [StoredEvent])] = []
        listeners.withLock { table in
            for (userId, events) in byUser {
                for listener in table[userId]?.values ?? [:].values { woken.append((listener, events)) }
            }
        }
        for (listener, events) in woken { listener.deliverStored(events) }
    }

    /// Wakes every listener of these users (they re-read storage).
    func notify(_ userIds: some Sequence<Int64>) {
        var woken: [EventListener] = []
        listeners.withLock { table in
            for id in userIds {
                if let group = table[id] { woken.append(contentsOf: group.values) }
            }
        }
        for listener in woken { listener.fireForReread() }
    }

    /// Gives a live-only event to every listener of `userId` that is registered now; nobody
    /// else ever sees it.
    /// The payload is encoded as every event's data is (`APIJSON`).
    /// Returns the event as delivered, for other instances; nil if the payload does not encode.
    @discardableResult
    func publishLive<T: Encodable>(to userId: Int64, type: String, payload: T, at: Timestamp) -> StoredEvent? {
        guard let json = try? APIJSON.encode(payload) else { return nil }
        let event = StoredEvent(seq: 0, type: type, createdAt: at, json: json)
        deliverLive(to: userId, event: event)
        return event
    }

    /// Gives an already encoded live-only event to the listeners of `userId` registered now.
    func deliverLive(to userId: Int64, event: StoredEvent) {
        let group = listeners.withLock { $0[userId].map { Array($0.values) } ?? [] }
        for listener in group { listener.deliverLive(event) }
    }

    /// Number of registered listeners (for tests and metrics).
    var listenerCount: Int { listeners.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}

/// One waiter on one user's stream: fired by the hub, by a timeout, or by cancellation.
final class EventListener: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case fired
    }

    /// Live-only events a listener holds before it counts as a slow consumer.
    static let liveCapacity = 256
    /// Committed events a listener holds; beyond that it re-reads storage instead.
    static let storedCapacity = 256

    let userId: Int64
    /// Which of the hub's sweep slices wakes this listener (`EventHub.sweepSlices`); nil for a
    /// long poll's, which the sweep leaves alone.
    let sweepSlice: Int?
    /// When the listener was registered: the sweep leaves it alone for its first period.
    let listeningSince = ContinuousClock.now
    /// The newest seq its stream has sent (`Int64.min` until the stream says): the sweep wakes
    /// the listener only when storage's head is past it.
    private let sent = Atomic<Int64>(.min)
    private let onWake: (@Sendable () -> Void)?
    private let state = Mutex(State.idle)
    private let live = Mutex<(events: [StoredEvent], overflowed: Bool)>(([], false))
    private let stored = Mutex<(events: [StoredEvent], complete: Bool)>(([], true))

    /// With `onWake`, the listener calls it each time it goes from armed to fired (the stream
    /// then calls `rearm()` before it reads); without, a task waits with `wait`/`waitForWake`.
    init(userId: Int64, sweepSlice: Int? = nil, onWake: (@Sendable () -> Void)? = nil) {
        self.userId = userId
        self.sweepSlice = sweepSlice
        self.onWake = onWake
    }

    /// Returns once fired (at once if it already was), after `timeout`, or when cancelled.
    func wait(timeout: Duration) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.fire()
        }
        defer { timer.cancel() }
        await waitForWake()
    }

    /// Returns once fired (at once if it already was) or when cancelled; no timer of its own
    /// (the hub's sweep wakes long-lived listeners now and then).
    func waitForWake() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if case .fired = state { return true }
                    state = .waiting(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }

    /// Makes a fired listener wait again (for a long-lived stream). Call it before re-reading the
    /// stream, so a commit after the read still wakes the next wait.
    func rearm() {
        state.withLock { state in
            if case .fired = state { state = .idle }
        }
    }

    /// Queues a live-only event for this listener and wakes it. A listener already holding
    /// `liveCapacity` events drops it and is marked overflowed: its reader is too slow.
    func deliverLive(_ event: StoredEvent) {
        live.withLock { live in
            if live.events.count >= Self.liveCapacity {
                live.overflowed = true
            } else {
                live.events.append(event)
            }
        }
        fire()
    }

    /// Holds committed events handed over by the hub and wakes the listener. Past
    /// `storedCapacity` they are dropped and the listener must re-read storage.
    func deliverStored(_ events: [StoredEvent]) {
        stored.withLock { stored in
            if stored.events.count + events.count > Self.storedCapacity {
                stored.events = []
                stored.complete = false
            } else if stored.complete {
                stored.events += events
            }
        }
        fire()
    }

    /// Records the newest seq the stream has sent.
    func noteSent(upTo seq: Int64) {
        sent.store(seq, ordering: .relaxed)
    }

    /// Whether storage holds events past what the stream has sent (always, until it says).
    func isBehind(head: Int64) -> Bool {
        head > sent.load(ordering: .relaxed)
    }

    /// Wakes the listener with nothing handed over: it must re-read storage.
    func fireForReread() {
        stored.withLock { $0.complete = false }
        fire()
    }

    /// The committed events handed over since the last call, in seq order, if they are exactly
    /// the ones after `seq` (nothing missing before or between them); nil when storage must be
    /// read instead. Events at or before `seq` are dropped either way.
    func takeStoredEvents(after seq: Int64) -> [StoredEvent]? {
        let (events, complete) = stored.withLock { stored in
            defer { stored = ([], true) }
            return (stored.events, stored.complete)
        }
        guard complete else { return nil }
        let fresh = events.filter { $0.seq > seq }.sorted { $0.seq < $1.seq }
        for (offset, event) in fresh.enumerated() where event.seq != seq + Int64(offset) + 1 {
            return nil
        }
        return fresh
    }

    /// The live-only events delivered so far, removed from the listener.
    func takeLiveEvents() -> [StoredEvent] {
        live.withLock { live in
            defer { live.events = [] }
            return live.events
        }
    }

    /// Whether live-only events were dropped because the buffer was full.
    var overflowed: Bool { live.withLock { $0.overflowed } }

    /// Wakes the waiter; later waits return at once.
    func fire() {
        let (continuation, wasArmed) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            defer { state = .fired }
            switch state {
            case .waiting(let continuation): return (continuation, true)
            case .idle: return (nil, true)
            case .fired: return (nil, false)
            }
        }
        continuation?.resume()
        if wasArmed { onWake?() }
    }
}
