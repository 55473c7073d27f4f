import Foundation
import PlayheadCore

/// The commands the player gives: start, rate, seek, volume and stop. Any thread; each returns at once, the
/// engine's threads carry it out.
extension PlaybackEngine {
    /// Opens the input and starts playing threads (paused until `setRate`).
    func start(at seconds: Double? = nil) {
        if let seconds { control.withLock { $0.pendingSeek = SeekRequest(id: -1, seconds: seconds, exact: true) } }
        spawn("playhead.demux") { $0.runDemux() }
    }

    /// Plays at `rate` (media seconds per second); 0 pauses.
    func setRate(_ rate: Double) {
        control.withLock { $0.rate = rate }
        applyCork()
        // A drain in progress must notice the pause.
        if rate == 0, ownsOutput { config.audioOutput?.interruptWrite() }
        wake()
    }

    /// Starts a seek; a seek already waiting is superseded (reported as not finished).
    func seek(to seconds: Double, exact: Bool, id: Int) {
        // Posted with the request, under the lock the demux thread takes it with: the seek's end, which that thread
        // may post at once, never reaches the player before its start.
        let position = clock.seconds
        control.withLock { c in
            let superseded = c.requestSeek(SeekRequest(id: id, seconds: seconds, exact: exact))
            if let old = superseded, old.id >= 0 {
                sink(.seekDone(id: old.id, position: position, finished: false))
            }
            sink(.seekStarted(id: id, target: seconds))
        }
        // The demux thread may be blocked reading: the read ends so it carries out the seek (and wakes the decode
        // threads). Only while the seek waits (`seekInterrupt`), and not for an input that cannot seek: the seek is
        // refused, and the read goes on undisturbed.
        seekInterrupt.withLock {
            guard let source, source.isSeekable, control.withLock({ $0.pendingSeek?.id == id }) else { return }
            // Nor for a seek the buffer holds: it is carried out there, and the read goes on (only a wait ends).
            if seemsWithinBuffer(SeekRequest(id: id, seconds: seconds, exact: exact)) {
                return source.interruptWaits()
            }
            control.withLock { $0.readInterrupted = true }
            source.interrupt()
        }
        wake()
    }

    /// Sets the software volume (0...1) and mute, applied to audio written from now on.
    func setVolume(_ volume: Float, muted: Bool) {
        control.withLock {
            $0.volume = volume
            $0.muted = muted
        }
    }

    /// Shows the subtitles `seconds` later than their time stamps say from now on (the text thread looks again at
    /// once). Any thread.
    func setTextDelay(_ seconds: Double) {
        control.withLock { $0.textDelay = seconds }
        wake()
    }

    /// Stops the threads and returns at once, waiting for nothing (no thread, no lock held across a call into the
    /// sound server, no server round trip): a write or drain in progress is interrupted, the output is corked for
    /// the next item, and the renderer's thread, which leaves this period's turn when it sees `stopping`, flushes
    /// what this period wrote before it gives any period a turn again. The threads end on their own. Any thread.
    func stop() {
        control.withLock { $0.stopping = true }
        let ownsOutput = self.ownsOutput
        if ownsOutput { config.audioOutput?.interruptWrite() }
        // No more turns on the renderer's thread; a period waiting at its end for this one looks again. The
        // output, corked at once, is flushed before any uncork.
        config.audio?.retire(self, flushingOutput: ownsOutput && config.decodeAudio)
        if let source {
            source.cancel()
        } else {
            // Not open yet: a FIFO without a writer holds the demux thread in its open.
            LocalFileCheck.releaseWaitingOpen(of: config.location)
        }
        audioQueue.abort()
        videoQueue.abort()
        frameQueue.abort()
        wake()
        config.audio?.remove(self)
        // No picture of this item waits for its time any more.
        video.setUpcoming(nil)
        if control.withLock({ $0.active }) { config.playerVideo?.setUpcoming(nil) }
    }
}
