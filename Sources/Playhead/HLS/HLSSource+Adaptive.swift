import Foundation
import PlayheadCore
import PlayheadHLS

/// The adaptive side of an HLS stream: the ladder, the media playlists loaded so far, the throughput estimate and
/// the policy. Owned by the demux thread through its `HLSSource` (shared by a source restarted for a seek).
final class HLSAdaptiveState: @unchecked Sendable {
    let variants: [Variant]
    var policy: AdaptiveBitratePolicy
    var estimator = BandwidthEstimator()
    var playlists: [Int: MediaPlaylist] = [:]
    var current: Int?

    init(variants: [Variant], caps: AdaptiveBitratePolicy.Caps) {
        self.variants = variants
        let rungs = variants.map { v in
            AdaptiveBitratePolicy.Rung(v, isSupported: v.codecList.allSatisfy(CodecSupport.isDecodable))
        }
        policy = AdaptiveBitratePolicy(rungs: rungs, caps: caps)
    }

    /// The variant to start with: the policy's choice for the starting estimate (the lowest allowed one when
    /// nothing is measured yet).
    func startRung() -> Int? {
        policy.nextRung(current: nil, estimate: estimator.estimate, buffer: 0, segmentDuration: 6)
    }
}

extension HLSSource {
    /// Switches variant when the policy says so, at a segment boundary, for streams whose segments can follow one
    /// another in one demuxer (MPEG-TS and packed audio; fMP4 needs a new init section and stays on its variant).
    func adapt() {
        guard let state = adaptive, let current = state.current, playlist.segments.allSatisfy({ $0.map == nil })
        else { return }
        let buffered = nextStart - playbackPosition()
        let duration = Double(playlist.targetDuration ?? 6)
        guard
            let target = state.policy.nextRung(
                current: current, estimate: state.estimator.estimate, buffer: buffered, segmentDuration: duration),
            target != current, let url = state.variants[target].url
        else { return }
        guard let media = state.playlists[target] ?? (try? Self.mediaPlaylist(url, fetch)) else { return }
        state.playlists[target] = media
        // The segment of the new variant that starts where the next one of the old would have.
        var start = 0.0
        var index: Int?
        for (i, s) in media.segments.enumerated() {
            if abs(start - nextStart) < 0.05 {
                index = i
                break
            }
            start += s.duration
        }
        guard let index else { return }
        switchTo(media, variant: state.variants[target], next: index)
        state.current = target
        onSwitch?(state.variants[target])
    }
}
