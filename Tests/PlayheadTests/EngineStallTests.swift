import Foundation
import PlayheadCore
import PlayheadFFmpeg
import Testing

@testable import Playhead

/// When a decode thread's empty queue is a stall (`PlaybackEngine.noteStarving`): the stall a user sees, the
/// sound and the clock stopping until the buffer refills, must come of a queue that is empty when it is decided.
@Suite struct EngineStallTests {
    /// An engine that has become ready and plays (no threads: its decisions alone), and the events it reported.
    func playingEngine() -> (PlaybackEngine, Locked<[String]>) {
        let events = Locked([String]())
        let engine = PlaybackEngine(configuration: EngineConfiguration(location: "stall-test", videoOutputs: [])) {
            event in
            switch event {
            case .ready: events.withLock { $0.append("ready") }
            case .stalled: events.withLock { $0.append("stalled") }
            case .resumed: events.withLock { $0.append("resumed") }
            default: break
            }
        }
        engine.control.withLock { $0.rate = 1 }
        engine.setBuffering(false)
        return (engine, events)
    }

    /// The audio thread found its queue empty during the start's fill and then waited for the processor while
    /// the demux thread put a whole segment in it and made the item ready: the stall it decides now would stop
    /// playback until the next segment came (the demux thread ends a stall only when it puts a packet), with two
    /// seconds of sound queued. It is no stall; a queue still empty is one.
    @Test func aQueueFilledSinceItWasFoundEmptyIsNoStall() throws {
        let (engine, events) = playingEngine()
        engine.audioQueue.put(.packet(try Packet(), seconds: 0), generation: 0)
        engine.noteStarving(engine.audioQueue)
        #expect(events.current == ["ready"])
        #expect(!engine.control.withLock { $0.buffering })
        _ = engine.audioQueue.take()
        engine.noteStarving(engine.audioQueue)
        #expect(events.current == ["ready", "stalled"])
        #expect(engine.control.withLock { $0.buffering && $0.corked })
    }

    /// An empty queue whose stream has ended, or during a seek, is no stall either.
    @Test func anEndedStreamOrASeekIsNoStall() throws {
        let (engine, events) = playingEngine()
        engine.videoQueue.put(.endOfStream, generation: 0)
        _ = engine.videoQueue.take()
        engine.noteStarving(engine.videoQueue)
        engine.control.withLock { $0.activeSeek = PlaybackEngine.SeekRequest(id: 1, seconds: 5, exact: false) }
        engine.noteStarving(engine.audioQueue)
        #expect(events.current == ["ready"])
    }

    /// A stall decided on the audio thread while the demux thread ends it: whichever thread applies the cork last,
    /// the clock (and the output) end as the engine's state says, playing. (Each thread applied the value it had
    /// decided: when the audio thread's cork came after the demux thread's uncork, the clock stood still and the
    /// output stayed corked for good while the engine played, as on a clean machine whose `cat file | playhead -`
    /// never ended.) Run many times over, the two threads let go together, beside threads that keep the
    /// processors busy so that either is held back at random points, as on the loaded machine where it happened.
    @Test func aStallEndedWhileItsCorkIsAppliedLeavesThePlayerPlaying() throws {
        let (engine, _) = playingEngine()
        let rounds = 20000
        let stop = Locked(false)
        var threads: [Thread] = []
        for _ in 0..<2 {
            threads.append(Thread { while !stop.withLock({ $0 }) {} })
        }
        // The audio thread finds its queue empty; the demux thread ends the stall as soon as it is decided.
        let (goStarve, goResume, done) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        threads.append(
            Thread {
                for _ in 0..<rounds {
                    goStarve.wait()
                    engine.noteStarving(engine.audioQueue)
                    done.signal()
                }
            })
        threads.append(
            Thread {
                for _ in 0..<rounds {
                    goResume.wait()
                    while !engine.control.withLock({ $0.buffering }) {}
                    engine.setBuffering(false)
                    done.signal()
                }
            })
        for t in threads { t.start() }
        defer { stop.withLock { $0 = true } }
        var stuck = 0
        for _ in 0..<rounds {
            goStarve.signal()
            goResume.signal()
            done.wait()
            done.wait()
            let corked = engine.control.withLock { $0.corked }
            if corked == engine.clock.isSystemRunning { stuck += 1 }
            // Back to playing for the next round, whatever happened.
            engine.setBuffering(false)
            engine.setRate(1)
        }
        #expect(stuck == 0, "\(stuck) of \(rounds) stalls left the clock standing while the engine played")
    }
}
