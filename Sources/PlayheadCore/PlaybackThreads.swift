import Foundation

/// Every thread a player runs (each engine's demux, decode and text threads, each renderer's audio thread, the
/// display thread of its windows, an HTTP client's thread while it downloads), started here and counted
/// process-wide, so a program can wait for the threads of the players it closed before it exits: `exit()` runs the
/// process's exit handlers (libcurl's, OpenSSL's, the C++ runtime's destructors) while any thread still running may
/// be inside them. Any thread.
package enum PlaybackThreads {
    private static let running = DispatchGroup()

    /// Starts `body` on a new thread named `name` (in the kernel too: `/proc/self/task/*/comm`, `top -H`), with a
    /// 1 MiB stack, at normal priority whatever its creator's, counted until `body` returns.
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        running.enter()
        let thread = Thread {
            // Foundation does not pass the name on to the kernel.
            ThreadName.set(name)
            dropRealtimePriority()
            body()
            running.leave()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// A thread inherits its creator's scheduling. The player's real-time threads (the audio writer, the loop
    /// watching a join) ask for `SCHED_RESET_ON_FORK` too, which gives their new threads normal priority, but where
    /// the kernel refuses that flag they run without it, and a thread of an app's own may be real time: a decoder or
    /// loader started from one would run at real-time priority, able to starve the machine. Threads that should run
    /// in real time ask for it themselves (`AudioOutput.prepareWriterThread`). On the new thread.
    private static func dropRealtimePriority() {
        var policy: Int32 = 0
        var param = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &param) == 0, policy != SCHED_OTHER else { return }
        param.sched_priority = 0
        pthread_setschedparam(pthread_self(), SCHED_OTHER, &param)
    }

    private static let exitHooks = Locked([ObjectIdentifier: @Sendable () -> Void]())

    /// Registers (or with nil removes) what `owner` must end before the program exits: work on a counted thread
    /// that a thread not counted here may be waiting for (an HTTP client's transfers, for an asset's open that runs
    /// on a thread of its own), which would otherwise hold the exit up for its whole time-out. Any thread.
    package static func beforeExit(_ owner: ObjectIdentifier, _ body: (@Sendable () -> Void)?) {
        exitHooks.withLock { $0[owner] = body }
    }

    /// Resumes once no counted thread runs, or after `seconds`; true when none runs. Runs the `beforeExit` hooks
    /// first: it is for a program about to exit. Never blocks a thread.
    package static func waitUntilNoneRuns(upTo seconds: Double) async -> Bool {
        for hook in exitHooks.withLock({ Array($0.values) }) { hook() }
        let resumed = Locked(false)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let finish: @Sendable (Bool) -> Void = { ended in
                let first = resumed.withLock { r -> Bool in
                    defer { r = true }
                    return !r
                }
                if first { continuation.resume(returning: ended) }
            }
            running.notify(queue: .global()) { finish(true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) { finish(false) }
        }
    }
}
