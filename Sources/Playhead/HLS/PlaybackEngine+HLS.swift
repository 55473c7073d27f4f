import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

extension PlaybackEngine {
    /// Connects an HLS source to the engine (demux thread, once the input is open): the play head and playing
    /// state it weighs, and its reports turned into engine events. An error the source meets fails the item with
    /// the source's own message (FFmpeg would only see an I/O error).
    func attach(_ hls: HLSSource) {
        hls.playbackPosition = { [weak self] in self?.clock.seconds ?? 0 }
        hls.currentCaps = { [weak self] in self?.hlsCaps }
        // A short forward buffer bounds the buffer the policy can hope for, as a live edge does.
        if config.forwardBufferSeconds > 0 { hls.fitPolicy(toBuffer: config.forwardBufferSeconds) }
        hls.isPlaying = { [weak self] in
            self?.control.withLock { $0.readyPosted && $0.rate > 0 && !$0.buffering } ?? false
        }
        hls.seekPending = { [weak self] in self?.control.withLock { $0.pendingSeek != nil } ?? false }
        if let v = hls.variant { sink(Self.switchEvent(v)) }
        hls.onSwitch = { [weak self] v in self?.sink(Self.switchEvent(v)) }
        hls.onJump = { [weak self] seconds in
            guard let self else { return }
            control.withLock { c in
                if c.pendingSeek == nil { c.pendingSeek = SeekRequest(id: -2, seconds: seconds, exact: false) }
            }
        }
        hls.onNotice = { [weak self] notice in
            guard let self else { return }
            switch notice {
            case .segment(let bytes, let seconds, let estimate):
                sink(.segmentLoaded(bytes: bytes, seconds: seconds, estimate: estimate))
            case .failed(let error):
                if !isStopping && !error.reason.hasSuffix("cancelled") { fail(error) }
            default:
                sink(.hls(notice))
            }
        }
    }

    /// The caps the HLS policy weighs now (any thread): the item's, as last set with `setCaps`, and the size of
    /// the largest video output that shows the picture (its window), when video is decoded.
    var hlsCaps: AdaptiveBitratePolicy.Caps {
        let (peak, maximum) = control.withLock { ($0.peakBitRate, $0.maximumResolution) }
        let window = config.decodeVideo ? video.displaySize : .zero
        return AdaptiveBitratePolicy.Caps(
            peakBitRate: peak, maximumResolution: CGSize(width: maximum.width, height: maximum.height),
            windowSize: window)
    }

    /// New item caps (main actor): the HLS source applies them before its next segment.
    func setCaps(peakBitRate: Double, maximumResolution: Size) {
        control.withLock { c in
            c.peakBitRate = peakBitRate
            c.maximumResolution = maximumResolution
        }
    }

    /// While the forward buffer is full (demux thread): a live HLS playlist keeps reloading on its schedule, without
    /// fetching segments, so the seekable window stays current while paused. False when the reload failed (the
    /// source reported it: the item has failed).
    func reloadIdleLive(_ input: MediaInput) -> Bool {
        guard let hls = input.byteSource as? HLSSource else { return true }
        do {
            try hls.reloadWhileIdle()
        } catch {
            return false
        }
        return true
    }

    /// Demux thread: once the item plays, a jump forward an idle reload found (the play head fell out of the live
    /// window while paused) becomes a seek there, with its time-jumped report.
    func takeIdleJump(_ input: MediaInput) {
        guard let hls = input.byteSource as? HLSSource, hls.jumpPending != nil,
            control.withLock({ $0.rate > 0 && $0.pendingSeek == nil })
        else { return }
        _ = hls.handOverPendingJump()
    }

    /// Ends an HLS source's wait for its next live reload so the demux thread takes a seek at once (any thread).
    func wakeSourceForSeek() {
        (input?.byteSource as? HLSSource)?.wakeup.signal()
    }

    static func switchEvent(_ v: Variant) -> EngineEvent {
        .variantSwitch(bitRate: v.bandwidth ?? 0, width: v.resolution?.width ?? 0, height: v.resolution?.height ?? 0)
    }
}
