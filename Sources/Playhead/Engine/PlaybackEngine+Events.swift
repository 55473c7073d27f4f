import Foundation
import PlayheadCore

/// The output corked or not, buffering (a stall) and the first readiness, a failure, the end: the state changes the
/// engine's threads make (the cork also `setRate`, from any thread), and the events that report them through `sink`.
extension PlaybackEngine {
    func applyCork(_ corked: Bool) {
        guard control.withLock({ $0.active }) else { return }
        if config.decodeAudio, info?.audioStream != nil, ownsOutput { config.audio?.setCorked(corked) }
        let rate = control.withLock { $0.rate }
        clock.setSystemRunning(!corked, rate: rate == 0 ? 1 : rate)
    }

    /// Marks the engine as buffering (a stall) or not, corking the output and reporting the change.
    func setBuffering(_ buffering: Bool) {
        guard let change = control.withLock({ $0.setBuffering(buffering) }) else { return }
        applyCork(change.corked)
        wake()
        if change.firstReady { config.audio?.nextChanged(self) }
        guard change.announce else { return }
        if change.firstReady {
            sink(.ready)
        } else {
            sink(buffering ? .stalled : .resumed)
        }
    }

    func fail(_ error: PlaybackError) {
        if control.withLock({ $0.markFailed() }) {
            sink(.failed(error))
            config.audio?.nextChanged(self)
        }
    }

    /// Reports the end once every active stream has ended and been heard; wakes threads waiting for a stream's end.
    func checkEnded() {
        wake()
        let media = info
        let playsAudio = media?.audioStream != nil && config.decodeAudio
        let playsVideo = media?.videoStream != nil && config.decodeVideo
        switch control.withLock({ $0.takeEnd(playsAudio: playsAudio, playsVideo: playsVideo) }) {
        case nil: return
        case .failed(let failure): fail(failure)
        case .ended: sink(.ended)
        case .notMedia:
            let reason = source?.undecodableReason ?? "not a media file (nothing could be decoded)"
            fail(PlaybackError(.parsing, source: config.location, reason: reason))
        }
    }
}
