import Foundation
import PlayheadCore

extension Player {
    /// Applies an HLS source's report to the item it plays (main actor): the seekable window, a live time jump
    /// (notification, observers and a `time-jumped` event), an error recovered from (the error log), a download
    /// given up (the access log's `downloadOverdue` and a `segment-abandoned` event).
    func handleHLS(_ notice: HLSNotice, item: PlayerItem, timestamp: Double) {
        switch notice {
        case .window(let start, let end, _):
            let range = TimeRange(
                start: MediaTime(seconds: start, preferredTimescale: 1000),
                end: MediaTime(seconds: max(start, end), preferredTimescale: 1000))
            if item.seekableTimeRanges != [range] { item.seekableTimeRanges = [range] }
        case .dates(let anchors):
            item.addDateAnchors(anchors)
        case .timeJumped(let from, let to):
            item.postNotification(PlayerItem.timeJumpedNotification)
            observers.timeJumped(player: self)
            emit(PlayerEvent(.timeJumped(from: from, to: to), timestamp: timestamp))
        case .recovered(let error):
            item.logError(error)
        case .abandoned(let uri):
            item.accessLogUpdate { $0.downloadOverdue += 1 }
            emit(PlayerEvent(.segmentAbandoned(uri: uri), timestamp: timestamp))
        case .segment, .failed:
            break
        }
    }
}

extension PlayerItem {
    /// Adds an entry to the error log and posts `newErrorLogEntryNotification` (main actor; posted from the item
    /// notification queue).
    func logError(_ error: PlaybackError) {
        errorLog.append(
            ErrorLogEntry(
                date: Date(), uri: error.source, errorDomain: error.category.rawValue,
                errorStatusCode: Int(error.code ?? 0), errorComment: error.reason))
        postNotification(PlayerItem.newErrorLogEntryNotification)
    }
}

extension Player {
    /// An item's HLS caps changed (main actor): its engine, current or preloaded, applies them from its next
    /// segment.
    func itemCapsChanged(_ item: PlayerItem) {
        for e in engines(playing: item) {
            e.setCaps(peakBitRate: item.preferredPeakBitRate, maximumResolution: item.preferredMaximumResolution)
        }
    }
}
