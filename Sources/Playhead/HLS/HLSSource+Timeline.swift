import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Where the time stamps of an HLS stream restart, and by how much each stretch is shifted so the item's timeline
/// stays continuous: a stretch (domain) is a discontinuity sequence number. An `EXT-X-GAP` segment, or one skipped
/// because no variant had it, keeps its time on the timeline, as in the playlist (the renditions, the subtitles and
/// the dates stay with it): nothing is fetched for it, and the time passes in silence over the last picture.
/// Shared by a source and the sources restarted from it for seeks; used on the demux thread only.
final class HLSTimeline: @unchecked Sendable {
    /// Seconds added to the time stamps of each discontinuity domain seen so far.
    var offsets: [Int: Double] = [:]
    /// The time stamp (seconds) that is item time 0, once the input is open.
    var base: Double?
}

/// Where a loaded segment's bytes begin in the bytes handed to FFmpeg, its discontinuity domain and its item time.
struct SegmentMark {
    var start: Int64
    var domain: Int
    var itemStart: Double
}

extension HLSSource: TimestampAdjustingSource {
    /// The discontinuity domain of `playlist`'s segment `index`.
    func domain(of index: Int) -> Int { playlist.segments[index].discontinuitySequence }

    /// Records that the next bytes handed out are segment `index`, starting at item time `itemStart`.
    func mark(segment index: Int, itemStart: Double, bytes: Int) {
        marks.append(SegmentMark(start: produced, domain: domain(of: index), itemStart: itemStart))
        if marks.count > 16 { marks.removeFirst(marks.count - 16) }
        produced += Int64(bytes)
    }

    /// Item time 0 is time stamp `base` (seconds): called once the input is open, before packets are read. The
    /// first domain keeps its time stamps.
    func setTimelineBase(_ base: Double) {
        timeline.base = base
        if let first = marks.first, timeline.offsets[first.domain] == nil { timeline.offsets[first.domain] = 0 }
    }

    func timestampOffset(position: Int64, seconds: Double) -> Double {
        let mark = position >= 0 ? (marks.last { $0.start <= position } ?? marks.first) : lastMark
        guard let mark else { return 0 }
        lastMark = mark
        if let known = timeline.offsets[mark.domain] { return known }
        guard let base = timeline.base else { return 0 }
        // The first packet of a new domain lands where its segment starts on the item's timeline.
        let offset = mark.itemStart + base - seconds
        timeline.offsets[mark.domain] = offset
        return offset
    }
}

extension HLSSource {
    /// A live rendition's window, placed on the item's timeline by media sequence number (`place`), moved to where
    /// its time stamps put it: the segment fetched first starts `stamp` seconds after the item's time stamp 0, in
    /// its timeline domain (the variant's clock). Renditions whose segments are not numbered as the variant's
    /// (other segment durations) are then asked for their segments where the play head is. Demux thread.
    func placeWindow(fetchedFirstAt stamp: Double) {
        guard let domain = marks.first?.domain, let offset = timeline.offsets[domain] else { return }
        let shift = stamp + offset - openedAt
        guard abs(shift) > 0.001 else { return }
        windowStart += shift
        nextStart += shift
        readFrom += shift
        openedAt += shift
        for i in marks.indices { marks[i].itemStart += shift }
    }
}
