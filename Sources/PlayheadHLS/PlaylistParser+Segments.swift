import Foundation

/// Segment URI lines and the final pass over a media playlist: sequence numbers, program date-times and the
/// duration checks that need the whole playlist.
extension ParserState {
    mutating func handleURILine(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) {
        var uri = string(b, start, end)
        if containsReference(b, start, end) { uri = try substitute(uri) }
        if let stream = pendingStream {
            pendingStream = nil
            multivariant.variants.append(Variant(uri: uri, baseURL: url, stream: stream.attributes))
            conformance.variantLines.append(stream.line)
            return
        }
        try appendSegment(uri: uri)
    }

    private mutating func appendSegment(uri: String) throws(PlaylistParseError) {
        var duration = pending.duration
        if !pending.hasExtinf {
            try issue(.missingSegmentDuration, "segment \(uri) has no #EXTINF")
        }
        if duration == nil { duration = media.targetDuration.map(Double.init) ?? 0 }
        var range: ByteRange?
        if let (length, offset) = pending.byteRange {
            if let offset {
                range = ByteRange(length: length, offset: offset, isOffsetExplicit: true)
            } else {
                var implied = 0
                if let last = lastRange {
                    implied = last.end
                    if last.uri != uri {
                        try issue(
                            .invalidByteRange, "#EXT-X-BYTERANGE without offset follows a range of another resource")
                    }
                } else {
                    try issue(.invalidByteRange, "#EXT-X-BYTERANGE without offset and no previous range")
                }
                range = ByteRange(length: length, offset: implied, isOffsetExplicit: false)
            }
        }
        lastRange = range.map { (uri, $0.end) }
        media.segments.append(
            MediaSegment(
                uri: uri, baseURL: url, duration: duration ?? 0, title: pending.title,
                discontinuity: pending.discontinuity, byteRange: range, keys: currentKeys, map: currentMap,
                programDateTime: pending.programDateTime, hasProgramDateTimeTag: pending.programDateTime != nil,
                gap: pending.gap, bitrate: range == nil ? currentBitrate : nil, parts: pending.parts,
                unknownTags: pending.unknownTags))
        extinfLines.append(pending.hasExtinf ? pending.extinfLine : lineNumber)
        pending = PendingSegment()
    }

    mutating func finishMedia() throws(PlaylistParseError) -> MediaPlaylist {
        if pending.hasExtinf {
            try issue(.missingSegmentDuration, "#EXTINF without a segment URI at the end", line: pending.extinfLine)
        }
        media.trailingParts = pending.parts
        media.trailingMap = currentMap
        media.trailingProgramDateTime = pending.programDateTime
        media.unknownTags = pending.unknownTags
        media.variables = variables
        if media.targetDuration == nil && (firstMediaTagLine != nil || !media.segments.isEmpty) {
            try issue(.missingTargetDuration, "media playlist without #EXT-X-TARGETDURATION", line: 1)
        }
        // The skipped segments stand where EXT-X-SKIP is: a misplaced one (after segments) numbers only the segments
        // after it past the skipped ones, as hls.js does.
        let skipped = media.skip?.skippedSegments ?? 0
        let skipIndex = conformance.skipSegmentIndex
        var discontinuity = media.discontinuitySequence
        var firstDated: Int?
        var carried: Date?
        for index in media.segments.indices {
            media.segments[index].mediaSequence =
                media.mediaSequence &+ index &+ (index >= skipIndex ? skipped : 0)
            if media.segments[index].discontinuity { discontinuity &+= 1 }
            media.segments[index].discontinuitySequence = discontinuity
            if let own = media.segments[index].programDateTime {
                carried = own
                if firstDated == nil { firstDated = index }
            } else if let date = carried {
                media.segments[index].programDateTime = date
            }
            if let date = carried { carried = date.addingTimeInterval(media.segments[index].duration) }
        }
        if let first = firstDated, first > 0, var date = media.segments[first].programDateTime {
            for index in stride(from: first - 1, through: 0, by: -1) {
                date = date.addingTimeInterval(-media.segments[index].duration)
                media.segments[index].programDateTime = date
            }
        }
        try dateFromTrailingProgramDateTime(undated: firstDated == nil)
        try checkDurations()
        try checkVersion()
        media.warnings = warnings
        return media
    }

    /// An `EXT-X-PROGRAM-DATE-TIME` after the last segment dates the end of that segment: when no segment has a
    /// date of its own, the segments are dated counting back from it by their durations. Without parts after it
    /// (where it dates the segment in progress, as LL-HLS allows) it is also a misplaced tag.
    private mutating func dateFromTrailingProgramDateTime(undated: Bool) throws(PlaylistParseError) {
        guard var date = pending.programDateTime else { return }
        if pending.parts.isEmpty {
            try issue(
                .misplacedTag, "#EXT-X-PROGRAM-DATE-TIME after the last segment (RFC 8216bis 4.4.4.6)",
                line: pending.programDateTimeLine)
        }
        guard undated else { return }
        for index in media.segments.indices.reversed() {
            date = date.addingTimeInterval(-media.segments[index].duration)
            media.segments[index].programDateTime = date
        }
    }

    /// RFC 8216bis 4.4.3.1: each `EXTINF`, rounded to the nearest integer, is at most the target duration; and
    /// 4.4.4.9: each part is at most the part target.
    private mutating func checkDurations() throws(PlaylistParseError) {
        if let target = media.targetDuration {
            let limit = Double(target)
            for index in media.segments.indices where media.segments[index].duration.rounded() > limit {
                try issue(
                    .durationExceedsTarget,
                    "#EXTINF \(media.segments[index].duration) exceeds #EXT-X-TARGETDURATION \(target)",
                    line: extinfLines[index])
            }
        }
        if let partTarget = media.partInformation?.partTarget {
            let parts = media.segments.flatMap(\.parts) + media.trailingParts
            for part in parts where part.duration > partTarget + 0.001 {
                try issue(.durationExceedsTarget, "part \(part.uri) lasts \(part.duration) s, over PART-TARGET")
            }
        }
    }
}
