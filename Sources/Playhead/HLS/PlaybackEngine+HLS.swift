import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

extension PlaybackEngine {
    /// The caps the HLS policy weighs now (any thread): the item's, as last set with `setCaps`, and the size of
    /// the largest video output that shows the picture (its window), when video is decoded.
    var hlsCaps: AdaptiveBitratePolicy.Caps {
        let (peak, maximum) = control.withLock { ($0.peakBitRate, $0.maximumResolution) }
        var window = CGSize.zero
        if config.decodeVideo {
            // The largest window among the item's outputs and the player's.
            let (item, player) = (video.displaySize, config.playerVideo?.displaySize ?? .zero)
            window = CGSize(width: max(item.width, player.width), height: max(item.height, player.height))
        }
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
}
