import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Where the time stamps of an HLS stream restart, and by how much each stretch is shifted so the item's timeline
/// stays continuous: a stretch (domain) is a discontinuity sequence number plus the `EXT-X-GAP` segments skipped
/// within it (a gap is cut out of the timeline, not waited through). Shared by a source and the sources restarted
/// from it for seeks; used on the demux thread only.
final class HLSTimeline: @unchecked Sendable {
    struct Domain: Hashable {
        var discontinuity: Int
        var gaps: Int
    }

    /// Seconds added to the time stamps of each domain seen so far.
    var offsets: [Domain: Double] = [:]
    /// The time stamp (seconds) that is item time 0, once the input is open.
    var base: Double?
}

/// Where a loaded segment's bytes begin in the bytes handed to FFmpeg, its domain and its item time.
struct SegmentMark {
    var start: Int64
    var domain: HLSTimeline.Domain
    var itemStart: Double
}

extension MediaSegment {
    /// Seconds the segment takes on the item's timeline: a gap takes none.
    var playedDuration: Double { gap ? 0 : duration }
}

extension HLSSource: TimestampAdjustingSource {
    /// The domain of `playlist`'s segment `index`.
    func domain(of index: Int) -> HLSTimeline.Domain {
        let sequence = playlist.segments[index].discontinuitySequence
        let gaps = playlist.segments[..<index].filter { $0.gap && $0.discontinuitySequence == sequence }.count
        return HLSTimeline.Domain(discontinuity: sequence, gaps: gaps)
    }

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
