import Foundation
import PlayheadCore
import Testing

/// A thread the player starts runs at normal priority even when a real-time thread starts it (the audio writer, or
/// the playback loop watching a join): decoding and loading at real-time priority could starve the machine.
@Suite struct PlaybackThreadsTests {
    /// The calling thread's scheduling policy, without the reset-on-fork flag.
    static func policy() -> Int32 {
        var policy: Int32 = 0
        var param = sched_param()
        pthread_getschedparam(pthread_self(), &policy, &param)
        return policy & ~0x4000_0000
    }

    @Test func aThreadStartedByARealtimeThreadRunsAtNormalPriority() async throws {
        let (raised, child) = await withCheckedContinuation { (done: CheckedContinuation<(Int32, Int32), Never>) in
            let parent = Thread {
                var param = sched_param()
                param.sched_priority = 1
                pthread_setschedparam(pthread_self(), Int32(SCHED_RR), &param)
                let parentPolicy = Self.policy()
                PlaybackThreads.start("test.child") { done.resume(returning: (parentPolicy, Self.policy())) }
            }
            parent.start()
        }
        try #require(raised == Int32(SCHED_RR), "this test needs a thread at SCHED_RR (root or RLIMIT_RTPRIO)")
        #expect(child == Int32(SCHED_OTHER), "the child thread's policy is \(child)")
    }
}
