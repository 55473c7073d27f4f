import PlayheadCore
import Testing

@testable import Playhead

/// A period's decisions alone (`PlaybackEngine.Control`): what becoming ready, a stall, a seek, a failure and the
/// end of its streams mean, as the engine's threads act on them. Each is what a user sees: one ready, a stall and
/// its resumption announced, the silence of a seek's own buffering, one end or one error.
@Suite struct EngineControlTests {
    typealias Control = PlaybackEngine.Control

    @Test func theFirstEndOfBufferingIsReadyAndLaterOnesAreStallsAndResumptions() {
        var c = Control()
        c.rate = 1
        let r1 = c.setBuffering(true)
        #expect(r1 == nil, "a period starts buffering: no change")
        let r2 = c.setBuffering(false)
        #expect(r2 == .init(announce: true, corked: false, firstReady: true))
        let r3 = c.setBuffering(false)
        #expect(r3 == nil)
        let r4 = c.setBuffering(true)
        #expect(r4 == .init(announce: true, corked: true, firstReady: false))
        let r5 = c.setBuffering(false)
        #expect(r5 == .init(announce: true, corked: false, firstReady: false))
    }

    @Test func pausedAPeriodStaysCorkedWhenItsBufferFills() {
        var c = Control()
        let r6 = c.setBuffering(false)
        #expect(r6?.corked == true)
        c.rate = 0.5
        #expect(!c.corked)
    }

    /// A live jump found while paused keeps the output corked when the item plays again, until the seek it becomes
    /// begins; a jump whose source went away before handing it over ends the wait instead of corking for ever.
    @Test func aWaitingLiveJumpCorksUntilItIsTakenOrGone() {
        var c = Control()
        _ = c.setBuffering(false)
        c.jumpWaiting = true
        #expect(c.releaseJumpWait() == nil, "paused: the jump waits for play")
        c.rate = 1
        #expect(c.corked, "playing with a jump waiting: the old place is not heard")
        c.pendingSeek = PlaybackEngine.SeekRequest(id: -2, seconds: 30, exact: false)
        #expect(c.releaseJumpWait() == nil, "the jump became a seek: the seek ends the wait")
        #expect(c.corked)
        c.pendingSeek = nil
        #expect(c.releaseJumpWait() == false, "nothing was handed over: playing on, uncorked")
        #expect(!c.jumpWaiting && !c.corked)
        #expect(c.releaseJumpWait() == nil, "released once")
    }

    @Test func aSeeksOwnBufferingIsNeitherAStallNorAResumption() {
        var c = Control()
        c.rate = 1
        _ = c.setBuffering(false)
        c.buffering = true
        c.seekBuffering = true
        let r7 = c.setBuffering(false)
        #expect(r7 == .init(announce: false, corked: false, firstReady: false))
        // The next stall is announced again.
        let r8 = c.setBuffering(true)
        #expect(r8?.announce == true)
    }

    /// A failure is final: a readiness, stall or end decided after it is not announced (the item would read as
    /// ready again, or a queue move on twice), though the output still corks and uncorks with the buffer.
    @Test func nothingIsAnnouncedAfterAFailure() {
        var c = Control()
        c.rate = 1
        let failed = c.markFailed()
        #expect(failed)
        let first = c.setBuffering(false)
        #expect(first == .init(announce: false, corked: false, firstReady: true))
        let stall = c.setBuffering(true)
        #expect(stall == .init(announce: false, corked: true, firstReady: false))
        let again = c.markFailed()
        #expect(!again, "one failure")
        (c.audioEnded, c.decodedAny) = (true, true)
        let end = c.takeEnd(playsAudio: true, playsVideo: false)
        #expect(end == nil, "a failed item does not also end")
    }

    @Test func nothingChangesWhileStopping() {
        var c = Control()
        c.stopping = true
        let r9 = c.setBuffering(false)
        #expect(r9 == nil)
        let r10 = c.markFailed()
        #expect(!r10)
        c.audioEnded = true
        let r11 = c.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r11 == nil)
    }

    @Test func aNewSeekSupersedesTheWaitingOneOrTheOneBeingCompleted() {
        var c = Control()
        let (a, b, d) = (
            PlaybackEngine.SeekRequest(id: 1, seconds: 4, exact: false),
            PlaybackEngine.SeekRequest(id: 2, seconds: 8, exact: true),
            PlaybackEngine.SeekRequest(id: 3, seconds: 1, exact: false)
        )
        let r12 = c.requestSeek(a)
        #expect(r12 == nil)
        let r13 = c.requestSeek(b)
        #expect(r13?.id == 1)
        // The demux thread took b and the decoders complete it: a newer one supersedes it there.
        c.activeSeek = c.pendingSeek
        c.pendingSeek = nil
        let r14 = c.requestSeek(d)
        #expect(r14?.id == 2)
        #expect(c.activeSeek == nil && c.pendingSeek?.id == 3)
    }

    @Test func aPeriodFailsOnce() {
        var c = Control()
        let r15 = c.markFailed()
        #expect(r15)
        let r16 = c.markFailed()
        #expect(!r16)
    }

    @Test func itEndsOnceEveryStreamItPlaysHasEndedAndNoSeekWaits() {
        var c = Control()
        c.decodedAny = true
        let r17 = c.takeEnd(playsAudio: true, playsVideo: true)
        #expect(r17 == nil)
        c.audioEnded = true
        let r18 = c.takeEnd(playsAudio: true, playsVideo: true)
        #expect(r18 == nil, "the pictures are still showing")
        let r19 = c.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r19 == .ended, "a period without pictures ends")
        let r20 = c.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r20 == nil, "ended twice")

        var seeking = Control()
        (seeking.audioEnded, seeking.decodedAny) = (true, true)
        seeking.pendingSeek = PlaybackEngine.SeekRequest(id: 1, seconds: 0, exact: false)
        let r21 = seeking.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r21 == nil, "a seek back must not end the item")
    }

    @Test func itFailsAtItsEndWithTheLoadingErrorOrAsNotMediaWhenNothingDecoded() {
        let error = PlaybackError(.network, source: "https://example.com/a.m3u8", reason: "the server went away")
        var loading = Control()
        (loading.audioEnded, loading.decodedAny, loading.endFailure) = (true, true, error)
        let r22 = loading.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r22 == .failed(error))

        var empty = Control()
        empty.audioEnded = true
        let r23 = empty.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r23 == .notMedia)
        var cut = Control()
        (cut.audioEnded, cut.cutShort) = (true, true)
        let r24 = cut.takeEnd(playsAudio: true, playsVideo: false)
        #expect(r24 == .ended, "cut before its first frame: not an error")
    }

    @Test func aPreloadedPeriodActivatesOnceWithItsCorkState() {
        var c = Control()
        c.active = false
        c.rate = 1
        c.buffering = false
        let r25 = c.activate()
        #expect(r25 == false)
        let r26 = c.activate()
        #expect(r26 == nil)
    }

    /// After a hand-off the join is due when the output has played up to the boundary, in real time; paused or
    /// corked it waits for a command or an uncork (no timed look); once heard the audio has ended, once; a seek or a stop since ends the wait without it.
    @Test func aJoinIsOverWhenItsBoundaryIsHeardOrNoLongerApplies() {
        var c = Control()
        c.rate = 2
        c.boundary = .init(frame: 48_000, generation: 0)
        #expect(c.joinWait(played: 24_000, sampleRate: 48_000) == .due(0.5), "frames pass in real time at any speed")
        c.rate = 0
        #expect(c.joinWait(played: 24_000, sampleRate: 48_000) == .paused)
        c.rate = 1
        #expect(
            c.joinWait(played: 47_999, sampleRate: 48_000, outputCorked: true) == .paused,
            "a stall of the period playing in the output: nothing passes until it is uncorked")
        #expect(c.joinWait(played: 47_999, sampleRate: 48_000) == .due(0.001))
        #expect(!c.audioEnded)
        #expect(c.joinWait(played: 48_000, sampleRate: 48_000) == .over)
        #expect(c.audioEnded && c.boundary == nil)

        var sought = Control()
        sought.rate = 1
        sought.boundary = .init(frame: 48_000, generation: 0)
        sought.generation = 1
        #expect(sought.joinWait(played: 0, sampleRate: 48_000) == .over)
        #expect(!sought.audioEnded, "a seek since: the period has not ended")

        var stopping = Control()
        stopping.rate = 1
        stopping.boundary = .init(frame: 48_000, generation: 0)
        stopping.stopping = true
        #expect(stopping.joinWait(played: 48_000, sampleRate: 48_000) == .over)
        #expect(!stopping.audioEnded)
    }

    /// A play position that stands while the output plays (the sound server went away right before the boundary)
    /// makes the looks back off once it has stood for a quarter of a second (a moment after an uncork it stands
    /// too): each wait is then the time it has stood, up to half a second, instead of the time until the boundary
    /// again and again; the position moving again, or a pause, brings the waits back to the time until it.
    @Test func aJoinWhosePositionStandsIsLookedAtLessAndLessOften() {
        var c = Control()
        c.rate = 1
        c.boundary = .init(frame: 48_000, generation: 0)
        // 3000 frames: 0.0625 s before the boundary.
        func waits(_ n: Int, at played: Int64) -> [Double] {
            (0..<n).compactMap {
                _ in if case .due(let w) = c.joinWait(played: played, sampleRate: 48_000) { w } else { nil }
            }
        }
        #expect(waits(7, at: 45_000) == [0.0625, 0.0625, 0.0625, 0.0625, 0.25, 0.5, 0.5])
        // 1500 frames before it: moving again, the time until the boundary; standing, the same until the grace.
        #expect(waits(2, at: 46_500) == [0.03125, 0.03125])
        #expect(waits(8, at: 46_500) == [0.03125, 0.03125, 0.03125, 0.03125, 0.03125, 0.03125, 0.25, 0.5])
        c.rate = 0
        #expect(c.joinWait(played: 46_500, sampleRate: 48_000) == .paused)
        c.rate = 1
        #expect(waits(1, at: 46_500) == [0.03125], "after a pause the position stood for a reason")
        #expect(c.joinWait(played: 48_000, sampleRate: 48_000) == .over)
    }
}
