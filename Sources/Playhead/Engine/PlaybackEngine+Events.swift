import Foundation
import PlayheadCore

/// The output corked or not, buffering (a stall) and the first readiness, a seek done, a failure, the end: the state
/// changes the engine's threads make (the cork also `setRate`, from any thread), and the events that report them
/// through `sink`.
extension PlaybackEngine {
    /// Records, once per thread (`done`), that a decoder gave a frame. On the audio or video decode thread.
    func noteDecoded(_ done: inout Bool) {
        guard !done else { return }
        done = true
        control.withLock { $0.decodedAny = true }
    }

    /// Reports the active seek as done, at `position` (the first audio written or frame shown after it), when
    /// that output belongs to the seek's generation.
    func completeSeek(at position: Double, generation: Int) {
        let seek = control.withLock { c -> SeekRequest? in
            guard c.generation == generation else { return nil }
            defer { c.activeSeek = nil }
            return c.activeSeek
        }
        if let seek, seek.id >= 0 { sink(.seekDone(id: seek.id, position: position, finished: true)) }
    }

    /// Corks or uncorks the output and stops or runs the clock as the engine's state says now (paused, buffering,
    /// about to jump), unless the period is inactive. Whoever changes that state calls this after, outside the
    /// control lock; the state is read and applied under `corkLock`, so the last to apply applies the latest. (Each
    /// applied the value it had decided: a stall's cork decided on the audio thread, which a busy machine then held
    /// back, landed after the demux thread's uncork, and the stream stayed corked for good with the engine playing:
    /// the writer waiting for room, nothing heard, the command never ending.) Any engine thread or the loop's.
    func applyCork() {
        corkLock.withLock {
            let (active, corked, rate) = control.withLock { ($0.active, $0.corked, $0.rate) }
            guard active else { return }
            if config.decodeAudio, info?.audioStream != nil, ownsOutput { config.audio?.setCorked(corked) }
            clock.setSystemRunning(!corked, rate: rate == 0 ? 1 : rate)
        }
    }

    /// Marks the engine as buffering (a stall) or not, corking the output and reporting the change.
    ///
    /// The readiness, stalls, failure and end are decided under the control lock by whichever thread gets there
    /// first, and posted under it too, so the player hears them in the order they were decided: posted after the
    /// lock, a `.ready` decided on the demux thread could reach the player after the audio thread's `.failed`,
    /// and the failed item read as ready. (`sink` only enqueues; it takes no lock of the engine's.)
    func setBuffering(_ buffering: Bool) {
        setBuffering(buffering, if: { _ in true })
    }

    /// `setBuffering`; with `announced` false, the end of a stall (not the first readiness) is not reported: the
    /// item does not play on, it fails where its decoders reach the end.
    func setBuffering(_ buffering: Bool, announced: Bool) {
        setBuffering(buffering, if: { _ in true }, announced: announced)
    }

    /// A decode thread found `queue` empty before its stream's end: buffering starts (a stall) unless a seek is
    /// under way or the queue has packets again. The queue is looked at again in the step that decides, under the
    /// control lock: the demux thread puts its packets before it looks whether the engine buffers (to end it), so
    /// one of the two threads sees what the other did. Looked at only before, a queue found empty during the start's
    /// fill, then filled with a whole segment while the decode thread waited for the processor, stalled a playing
    /// stream until the next segment came. On the audio or video decode thread.
    func noteStarving(_ queue: PacketQueue) {
        // A seek waiting to be carried out empties the queues itself: its wait is not a stall.
        setBuffering(
            true, if: { c in c.activeSeek == nil && c.pendingSeek == nil && queue.isEmpty && !queue.reachedEnd })
    }

    /// `setBuffering`, decided only when `condition` (evaluated under the control lock) holds.
    private func setBuffering(_ buffering: Bool, if condition: (Control) -> Bool, announced: Bool = true) {
        let change = control.withLock { c -> Control.BufferingChange? in
            guard condition(c) else { return nil }
            let change = c.setBuffering(buffering)
            if let change, change.announce, announced || change.firstReady {
                sink(change.firstReady ? .ready : buffering ? .stalled : .resumed)
            }
            return change
        }
        guard let change else { return }
        applyCork()
        wake()
        if change.firstReady { config.audio?.nextChanged(self) }
    }

    /// The output ran dry (`AudioOutputEvent.underflow`): reported when this period meant its sound to go on
    /// (ready, playing, not buffering or corked, its last sound not yet written): not the underflow that comes as a
    /// stream's last sound plays. On the output's events queue.
    func outputRanDry() {
        let meantToPlay = control.withLock { c in
            !c.corked && c.readyPosted && c.audioFinishing != c.generation && !c.audioEnded && !c.stopping
        }
        if meantToPlay { sink(.audioUnderflow(position: clock.seconds)) }
    }

    func fail(_ error: PlaybackError) {
        let failed = control.withLock { c in
            let first = c.markFailed()
            if first { sink(.failed(error)) }
            return first
        }
        if failed { config.audio?.nextChanged(self) }
    }

    /// Reports the end once every active stream has ended and been heard; wakes threads waiting for a stream's end.
    func checkEnded() {
        wake()
        let media = info
        let playsAudio = media?.audioStream != nil && config.decodeAudio
        let playsVideo = media?.videoStream != nil && config.decodeVideo
        let end = control.withLock { c in
            let end = c.takeEnd(playsAudio: playsAudio, playsVideo: playsVideo)
            if end == .ended { sink(.ended) }
            return end
        }
        switch end {
        case nil, .ended: return
        case .failed(let failure): fail(failure)
        case .notMedia:
            let reason = source?.undecodableReason ?? "not a media file (nothing could be decoded)"
            fail(PlaybackError(.parsing, source: config.location, reason: reason))
        }
    }
}
