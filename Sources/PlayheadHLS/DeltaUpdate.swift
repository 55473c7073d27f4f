import Foundation

extension MediaPlaylist {
    /// Whether this playlist is a delta update (it has `EXT-X-SKIP`).
    public var isDeltaUpdate: Bool { skip != nil }

    /// Applies this delta update (a playlist requested with `_HLS_skip`, carrying `EXT-X-SKIP`) to the previous
    /// full playlist, and returns the full playlist it stands for (RFC 8216bis 6.2.5.1 and 6.3.4).
    ///
    /// The skipped segments are taken from `previous` by media sequence number. Tags that were in effect at the end
    /// of the skipped run (the map, the keys, program date-times) carry over to the listed segments that precede
    /// their own tags; discontinuity sequence numbers are recounted over the whole playlist; date ranges that the
    /// delta does not repeat are kept from `previous` unless listed in `RECENTLY-REMOVED-DATERANGES`.
    /// A playlist without `EXT-X-SKIP` is returned unchanged. Throws when `previous` lacks a skipped segment.
    public func applyingDeltaUpdate(to previous: MediaPlaylist) throws(PlaylistParseError) -> MediaPlaylist {
        guard let skip else { return self }
        let firstSkipped = mediaSequence
        let count = skip.skippedSegments
        let (offset, overflow) = firstSkipped.subtractingReportingOverflow(previous.firstListedMediaSequence)
        guard !overflow, count >= 0, offset >= 0, count <= previous.segments.count,
            offset <= previous.segments.count - count
        else {
            throw PlaylistParseError(
                line: nil, kind: .protocolViolation,
                message: "the delta update skips \(count) segments from media sequence \(firstSkipped), which the "
                    + "previous playlist (\(previous.segments.count) segments from \(previous.firstListedMediaSequence)) "
                    + "does not hold")
        }
        var merged = self
        merged.skip = nil
        let skipped = Array(previous.segments[offset..<(offset + count)])
        var listed = segments
        if let last = skipped.last {
            var index = 0
            while index < listed.count, listed[index].map == nil {
                listed[index].map = last.map
                index += 1
            }
            index = 0
            while index < listed.count, listed[index].keys.isEmpty {
                listed[index].keys = last.keys
                index += 1
            }
            if !listed.contains(where: \.hasProgramDateTimeTag), let date = last.programDateTime {
                var carried = date.addingTimeInterval(last.duration)
                for index in listed.indices {
                    listed[index].programDateTime = carried
                    carried = carried.addingTimeInterval(listed[index].duration)
                }
            }
        }
        merged.segments = skipped + listed
        if merged.trailingMap == nil { merged.trailingMap = merged.segments.last?.map }
        var discontinuity = merged.discontinuitySequence
        for index in merged.segments.indices {
            merged.segments[index].mediaSequence = firstSkipped &+ index
            if merged.segments[index].discontinuity { discontinuity &+= 1 }
            merged.segments[index].discontinuitySequence = discontinuity
        }
        let removed = Set(skip.recentlyRemovedDateRanges)
        let repeated = Set(dateRanges.map(\.id))
        merged.dateRanges =
            previous.dateRanges.filter { !removed.contains($0.id) && !repeated.contains($0.id) } + dateRanges
        return merged
    }
}
