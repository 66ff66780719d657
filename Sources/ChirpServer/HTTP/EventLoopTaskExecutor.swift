import NIOCore

/// Runs tasks on one NIO event loop: a connection's request handling, with this as its task
/// executor preference, stays on the thread that reads and writes its socket instead of
/// hopping to Swift's cooperative pool and back for every request.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
