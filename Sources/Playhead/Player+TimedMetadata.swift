import Foundation
import PlayheadFFmpeg

/// Tags a stream changes while it plays (an internet radio's song title, a chained Ogg stream's next song): the
/// demuxer reads them ahead of what is heard, by as much as the forward buffer, so the item takes them when
/// playback reaches the time they came at. Main actor.
extension Player {
    /// Applies `metadata` to `item` once playback reaches item time `seconds` (at once when unknown or past).
    /// The wait is the media time ahead at the current rate (1 when paused), at most a minute; a change is applied
    /// only after the ones reported before it.
    func scheduleTimedMetadata(_ metadata: MediaMetadata, at seconds: Double?, item: PlayerItem) {
        item.timedMetadataChanges.reported += 1
        let change = item.timedMetadataChanges.reported
        let ahead = seconds.map { $0 - currentTime().seconds } ?? 0
        let speed = rate > 0 ? Double(rate) : 1
        let delay = ahead.isFinite ? min(max(ahead / speed, 0), 60) : 0
        guard delay > 0.01 else {
            item.applyTimedMetadata(metadata, change: change)
            return
        }
        Task { @MainActor [weak item] in
            try? await Task.sleep(for: .seconds(delay))
            item?.applyTimedMetadata(metadata, change: change)
        }
    }
}

extension PlayerItem {
    /// Takes the stream's changed tags: `metadata` becomes them, `timedMetadata` the items that changed. A change
    /// older than one applied already is dropped. Main actor.
    func applyTimedMetadata(_ changed: MediaMetadata, change: Int? = nil) {
        if let change {
            guard change > timedMetadataChanges.applied else { return }
            timedMetadataChanges.applied = change
        }
        let items = MetadataItem.items(from: changed)
        let before = metadata
        metadata = items
        timedMetadata = items.filter { !before.contains($0) }
    }
}
