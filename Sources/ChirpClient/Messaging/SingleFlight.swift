/// Runs a job at most once at a time however many ask for it, and never leaves an ask
/// behind: a trigger while no run goes on starts one; a trigger during a run gets the one
/// run queued after it (all triggers during a run share it), which starts when the current
/// one ends and so sees everything those triggers were about. Runs are unstructured tasks:
/// a caller that stops waiting does not stop the run.
actor SingleFlight<Value: Sendable> {
    private let job: @Sendable () async throws -> Value
    private var running: Task<Value, any Error>?
    private var queued: Task<Value, any Error>?

    /// A single flight of `job`.
    init(_ job: @escaping @Sendable () async throws -> Value) {
        self.job = job
    }

    /// The run that answers this trigger: a new one, or the one queued after the current run.
    func trigger() -> Task<Value, any Error> {
        if let queued { return queued }
        guard let running else {
            let task = start(after: nil)
            running = task
            return task
        }
        let task = start(after: running)
        queued = task
        return task
    }

    private func start(after previous: Task<Value, any Error>?) -> Task<Value, any Error> {
        Task {
            if let previous {
                _ = await previous.result
                self.promote()
            }
            do {
                let value = try await job()
                self.finished()
                return value
            } catch {
                self.finished()
                throw error
            }
        }
    }

    /// The queued run starts: it is the running one now, and the next trigger queues anew.
    private func promote() {
        running = queued
        queued = nil
    }

    private func finished() {
        running = nil
    }
}
