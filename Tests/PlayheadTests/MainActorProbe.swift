import Foundation
import Playhead
import PlayheadTestSupport

extension LifecycleTests {
    /// Measures how late the main actor runs a job queued every 5 ms: the worst delay is how long something held
    /// the main actor. Two controls beside it measure the machine's share in the same moment, which holds nothing
    /// of the main actor and is taken off: a thread that sleeps 5 ms at a time (how long the machine kept the CPU
    /// from everyone: a build beside the tests, the player's own threads starting), and an actor on its own serial
    /// dispatch queue that does what the probe does (how long dispatch took to fire the timer and wake a worker
    /// thread for the queue: the main queue is drained by dispatch's worker threads on Linux, so its jobs wait for
    /// the same wake-ups). A main actor busy with a job, or waiting on a lock or the sound server, is late while
    /// neither control is, and counts in full.
    @MainActor final class MainActorProbe {
        private(set) var worst = 0.0
        /// The worst lateness before the control's was taken off.
        private(set) var worstRaw = 0.0
        /// What the test was doing when the main actor was held longest.
        private(set) var worstDuring = ""
        var phase = "start"
        private var task: Task<Void, Never>?
        private let control = ControlSleeper()

        init() {
            control.start()
            task = Task { @MainActor [weak self] in
                while !Task.isCancelled {
                    let asked = MonotonicClock.now()
                    try? await Task.sleep(for: .milliseconds(5))
                    let now = MonotonicClock.now()
                    let late = now - asked - 0.005
                    guard let self else { return }
                    let held = late - control.worstLateness(endingIn: asked...now)
                    self.worstRaw = max(self.worstRaw, late)
                    if held > self.worst { (self.worst, self.worstDuring) = (held, self.phase) }
                }
            }
        }

        /// The worst hold in milliseconds, its phase, and the raw lateness.
        var report: String {
            "\(Int(worst * 1000)) ms (\(worstDuring); \(Int(worstRaw * 1000)) ms before the machine's share)"
        }

        /// Forgets the holds seen so far (the probe's own start, the test's set-up: a fresh process on a cold
        /// machine once held the main actor 105 ms there, with no player made yet), before the phase measured.
        func forgetWorst() {
            (worst, worstRaw, worstDuring) = (0, 0, "")
        }

        func stop() {
            task?.cancel()
            control.stop()
        }
    }

    /// A thread that sleeps 5 ms at a time and an actor on a serial dispatch queue that does the same, each
    /// recording how late it wakes (the machine's delay). Any thread.
    final class ControlSleeper: Sendable {
        private struct Sample {
            var end: Double
            var late: Double
        }

        // `Locked` (a pthread mutex), not `Synchronization.Mutex`: ThreadSanitizer sees the first and reads the
        // second's raw futex calls as no lock at all (scripts/sanitize.sh reported these samples as races).
        private let samples = Locked<[Sample]>([])
        private let stopped = Locked(false)

        func start() {
            let thread = Thread { [self] in
                while !stopped.withLock({ $0 }) {
                    let asked = MonotonicClock.now()
                    usleep(5_000)
                    let end = MonotonicClock.now()
                    record(end: end, late: end - asked - 0.005)
                }
            }
            thread.start()
            let actor = QueueSleeper()
            Task.detached { [self] in await actor.run(recordingInto: self) }
        }

        func stop() { stopped.withLock { $0 = true } }

        var isStopped: Bool { stopped.withLock { $0 } }

        /// Records a sleep of either control that ended at `end`, `late` seconds late.
        func record(end: Double, late: Double) {
            samples.withLock { s in
                s.append(Sample(end: end, late: late))
                if s.count > 4_000 { s.removeFirst(2_000) }
            }
        }

        /// The worst lateness of the control's sleeps that ended within `window` (0 when none did).
        func worstLateness(endingIn window: ClosedRange<Double>) -> Double {
            samples.withLock { s in
                s.lazy.filter { window.contains($0.end) }.map(\.late).max() ?? 0
            }
        }
    }

    /// An actor whose jobs run on its own serial dispatch queue, as the main actor's run on the main queue: it
    /// sleeps 5 ms at a time until the control stops. Its own queue.
    actor QueueSleeper {
        private final class QueueExecutor: SerialExecutor {
            let queue = DispatchQueue(label: "playhead.tests.probe-control")

            func enqueue(_ job: consuming ExecutorJob) {
                let job = UnownedJob(job)
                queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
            }
        }

        private let executor = QueueExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func run(recordingInto control: ControlSleeper) async {
            while !control.isStopped {
                let asked = MonotonicClock.now()
                try? await Task.sleep(for: .milliseconds(5))
                let end = MonotonicClock.now()
                control.record(end: end, late: end - asked - 0.005)
            }
        }
    }
}
