import Foundation

/// Real-time scheduling for the two threads that keep the sound server fed: the player's audio thread (it decodes
/// and writes) and PulseAudio's mainloop thread (it takes the server's requests and sends the data). At normal
/// priority a busy machine (a build beside the player) held either back for up to a few hundred milliseconds,
/// longer than the server's buffer lasts, and the stream ran dry: a gap. `SCHED_RR` at a priority below the sound
/// server's own (PulseAudio's threads use 5) runs them as soon as they wake. A process may do this with
/// `CAP_SYS_NICE` or an `RLIMIT_RTPRIO` of at least `priority` (the `audio` group on many distributions); where it
/// may not, the thread stays as it was and the buffer alone rides out the delays. The engine's locks inherit
/// priority (`PriorityInheritingCondition`), so a normal thread holding one runs at this priority meanwhile.
enum RealtimeScheduling {
    /// The `SCHED_RR` priority asked for: one below PulseAudio's.
    static let priority: Int32 = 4
    /// `SCHED_RESET_ON_FORK` (Linux): a process forked from such a thread starts at normal priority.
    private static let resetOnFork: Int32 = 0x4000_0000
    private static let key = "playhead.realtimeRequested"

    /// Asks, once per thread, for `SCHED_RR` at `priority` for the calling thread; true when it has it. On the
    /// calling thread, whichever it is.
    @discardableResult
    static func raiseCallingThreadOnce() -> Bool {
        let thread = Thread.current
        if let done = thread.threadDictionary[key] as? Bool { return done }
        var param = sched_param()
        param.sched_priority = priority
        var ok = pthread_setschedparam(pthread_self(), Int32(SCHED_RR) | resetOnFork, &param) == 0
        if !ok { ok = pthread_setschedparam(pthread_self(), Int32(SCHED_RR), &param) == 0 }
        thread.threadDictionary[key] = ok
        return ok
    }
}
