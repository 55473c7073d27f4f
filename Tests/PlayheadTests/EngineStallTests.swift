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
}
