import Foundation

/// Every thread a player runs (each engine's demux, decode and text threads, each renderer's audio thread, the
/// display thread of its windows), started
/// here and counted process-wide, so a program can wait for the threads of the players it closed before it exits:
/// `exit()` runs the process's exit handlers (libcurl's, OpenSSL's, the C++ runtime's destructors) while any
/// thread still running may be inside them. Any thread.
package enum PlaybackThreads {
    private static let running = DispatchGroup()

    /// Starts `body` on a new thread named `name` (in the kernel too: `/proc/self/task/*/comm`, `top -H`), with a
    /// 1 MiB stack, counted until `body` returns.
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        running.enter()
        let thread = Thread {
            // Foundation does not pass the name on to the kernel.
            ThreadName.set(name)
            body()
            running.leave()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Resumes once no counted thread runs, or after `seconds`; true when none runs. Never blocks a thread.
    package static func waitUntilNoneRuns(upTo seconds: Double) async -> Bool {
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
