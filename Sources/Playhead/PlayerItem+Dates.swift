import Foundation
import PlayheadCore

/// A point where an item's time meets a wall-clock date (an HLS segment's `EXT-X-PROGRAM-DATE-TIME`). A value
/// type, safe anywhere.
struct DateAnchor: Sendable, Equatable {
    /// Item time, in seconds.
    var seconds: Double
    /// The date of that moment.
    var date: Date
}

/// The dates of an HLS stream's moments, like `AVPlayerItem.currentDate()` and `seek(to:completionHandler:)` with a
/// `Date`: a live stream's clock time, a recording's wall-clock time. Main actor.
extension PlayerItem {
    /// The date of the item's current time, from its stream's `EXT-X-PROGRAM-DATE-TIME` tags (the anchor at or
    /// before the time, plus the seconds since); nil when its playlists date nothing. Main actor.
    public func currentDate() -> Date? {
        date(at: currentTime().seconds)
    }

    /// Seeks exactly to the moment dated `date`, like `AVPlayerItem.seek(to:completionHandler:)`: true when the
    /// item knows where that date is (it is its player's current item, its playlists date their segments, and the
    /// date falls in the seekable window), and the seek was asked; false, and nothing moves, otherwise. The
    /// handler is told whether the seek finished. Main actor.
    @discardableResult
    public func seek(to date: Date, completionHandler: (@Sendable (Bool) -> Void)? = nil) -> Bool {
        guard let player, player.currentItem === self, let seconds = seconds(at: date),
            let window = seekableTimeRanges.last, window.start.seconds - 0.001 <= seconds,
            seconds <= window.end.seconds + 0.001
        else { return false }
        let time = MediaTime(seconds: seconds, preferredTimescale: 1000)
        player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) { completionHandler?($0) }
        return true
    }

    /// The date at item time `seconds`; nil without anchors.
    func date(at seconds: Double) -> Date? {
        guard let anchor = dateAnchors.last(where: { $0.seconds <= seconds + 0.0005 }) ?? dateAnchors.first else {
            return nil
        }
        return anchor.date.addingTimeInterval(seconds - anchor.seconds)
    }

    /// The item time dated `date`; nil without anchors. Between two anchors whose dates jump, the later one's
    /// dates win from its time on.
    func seconds(at date: Date) -> Double? {
        var found: Double?
        for (i, anchor) in dateAnchors.enumerated() where anchor.date <= date {
            let t = anchor.seconds + date.timeIntervalSince(anchor.date)
            let next = i + 1 < dateAnchors.count ? dateAnchors[i + 1].seconds : .infinity
            if t < next + 0.0005 { found = t }
        }
        return found
    }

    /// Keeps `anchors` (a window's), replacing those at the same times: a live window's reload repeats most of
    /// them. At most 10 000 are kept, the latest.
    func addDateAnchors(_ anchors: [DateAnchor]) {
        var merged = dateAnchors.filter { kept in !anchors.contains { abs($0.seconds - kept.seconds) < 0.0005 } }
        merged.append(contentsOf: anchors)
        merged.sort { $0.seconds < $1.seconds }
        // Consecutive anchors that continue one another's dates say nothing new.
        var simplified: [DateAnchor] = []
        for anchor in merged {
            if let last = simplified.last,
                abs(last.date.addingTimeInterval(anchor.seconds - last.seconds).timeIntervalSince(anchor.date)) < 0.001
            {
                continue
            }
            simplified.append(anchor)
        }
        dateAnchors = Array(simplified.suffix(10_000))
    }
}
