import Foundation
import PlayheadCore
import PlayheadHLS

extension DemuxerSource {
    /// Connects the HLS client to the engine through its host (demux thread, before the first read): the play head
    /// and playing state the ABR policy weighs, the caps, and its reports turned into engine events. An error the
    /// client meets fails the item with its own message (FFmpeg would only see an I/O error).
    func attachHLS(_ hls: HLSSource, _ host: SourceHost) {
        hls.playbackPosition = host.position
        hls.currentCaps = host.caps
        // A short forward buffer bounds the buffer the policy can hope for, as a live edge does.
        if host.forwardBufferSeconds > 0 { hls.fitPolicy(toBuffer: host.forwardBufferSeconds) }
        hls.isPlaying = host.isPlaying
        hls.seekPending = host.seekPending
        if let v = hls.variant { host.post(Self.switchEvent(v)) }
        hls.onSwitch = { v in host.post(Self.switchEvent(v)) }
        hls.onJump = host.requestJump
        hls.onNotice = { notice in
            switch notice {
            case .segment(let bytes, let seconds, let estimate):
                host.post(.segmentLoaded(bytes: bytes, seconds: seconds, estimate: estimate))
            case .failed(let error):
                if !error.reason.hasSuffix("cancelled") { host.fail(error) }
            default:
                host.post(.hls(notice))
            }
        }
        jumpAllowed = host.mayJump
    }

    /// Demux thread, before a read: once the item plays, a jump forward an idle reload found (the play head fell
    /// out of the live window while paused) becomes a seek there, with its time-jumped report. True when it did.
    func takeJump(_ hls: HLSSource) -> Bool {
        guard hls.jumpPending != nil, jumpAllowed() else { return false }
        return hls.handOverPendingJump()
    }

    static func switchEvent(_ v: Variant) -> EngineEvent {
        .variantSwitch(bitRate: v.bandwidth ?? 0, width: v.resolution?.width ?? 0, height: v.resolution?.height ?? 0)
    }
}
