import Foundation

extension PlaylistWriter {
    /// The text of a media playlist. Keys, maps and bitrates are written where they change, so the parser folds
    /// them back onto the same segments.
    public func write(_ playlist: MediaPlaylist) -> String {
        var out = TextBuilder()
        out.line("#EXTM3U")
        if let version = playlist.version { out.line("#EXT-X-VERSION:\(version)") }
        for definition in playlist.variables { out.tag("EXT-X-DEFINE", Self.define(definition)) }
        if let target = playlist.targetDuration { out.line("#EXT-X-TARGETDURATION:\(target)") }
        if playlist.mediaSequence != 0 { out.line("#EXT-X-MEDIA-SEQUENCE:\(playlist.mediaSequence)") }
        if playlist.discontinuitySequence != 0 {
            out.line("#EXT-X-DISCONTINUITY-SEQUENCE:\(playlist.discontinuitySequence)")
        }
        if let type = playlist.playlistType { out.line("#EXT-X-PLAYLIST-TYPE:\(type.rawValue)") }
        if playlist.iFramesOnly { out.line("#EXT-X-I-FRAMES-ONLY") }
        if playlist.independentSegments { out.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { out.tag("EXT-X-START", Self.start(start)) }
        if let control = playlist.serverControl {
            var list = AttributeList()
            list.number("CAN-SKIP-UNTIL", control.canSkipUntil)
            if control.canSkipDateRanges { list.enumerated("CAN-SKIP-DATERANGES", "YES") }
            list.number("HOLD-BACK", control.holdBack)
            list.number("PART-HOLD-BACK", control.partHoldBack)
            if control.canBlockReload { list.enumerated("CAN-BLOCK-RELOAD", "YES") }
            out.tag("EXT-X-SERVER-CONTROL", list, control.unknownAttributes)
        }
        if let info = playlist.partInformation {
            var list = AttributeList()
            list.number("PART-TARGET", info.partTarget)
            out.tag("EXT-X-PART-INF", list, info.unknownAttributes)
        }
        let skipIndex = Self.skipIndex(playlist)
        if skipIndex == 0, let skip = playlist.skip { Self.write(skip, into: &out) }
        for range in playlist.dateRanges { out.tag("EXT-X-DATERANGE", Self.dateRange(range)) }
        var state = SegmentWriterState()
        for (index, segment) in playlist.segments.enumerated() {
            if index == skipIndex, index > 0, let skip = playlist.skip { Self.write(skip, into: &out) }
            Self.write(segment, state: &state, into: &out)
        }
        if skipIndex == playlist.segments.count, skipIndex > 0, let skip = playlist.skip {
            Self.write(skip, into: &out)
        }
        if playlist.trailingMap != state.map, let map = playlist.trailingMap {
            Self.writeMap(map, state: &state, into: &out)
        }
        if let date = playlist.trailingProgramDateTime {
            out.line("#EXT-X-PROGRAM-DATE-TIME:\(ISO8601.format(date))")
        }
        for part in playlist.trailingParts { Self.write(part, into: &out) }
        for hint in playlist.preloadHints {
            var list = AttributeList()
            list.enumerated("TYPE", hint.type)
            list.quoted("URI", hint.uri)
            list.integer("BYTERANGE-START", hint.byteRangeStart)
            list.integer("BYTERANGE-LENGTH", hint.byteRangeLength)
            out.tag("EXT-X-PRELOAD-HINT", list, hint.unknownAttributes)
        }
        for report in playlist.renditionReports {
            var list = AttributeList()
            list.quoted("URI", report.uri)
            list.integer("LAST-MSN", report.lastMediaSequence)
            list.integer("LAST-PART", report.lastPart)
            out.tag("EXT-X-RENDITION-REPORT", list, report.unknownAttributes)
        }
        for tag in playlist.unknownTags { out.line(tag.line) }
        if playlist.hasEndList { out.line("#EXT-X-ENDLIST") }
        return out.text
    }

    /// Where `EXT-X-SKIP` goes: first (0), unless the segments were numbered after a misplaced one (segments
    /// numbered from `EXT-X-MEDIA-SEQUENCE` before the skipped ones), which is written where it was.
    private static func skipIndex(_ playlist: MediaPlaylist) -> Int {
        guard let skip = playlist.skip, skip.skippedSegments != 0 else { return 0 }
        var index = 0
        while index < playlist.segments.count, playlist.segments[index].mediaSequence == playlist.mediaSequence &+ index
        {
            index += 1
        }
        return index
    }

    private static func write(_ skip: SkipInfo, into out: inout TextBuilder) {
        var list = AttributeList()
        list.integer("SKIPPED-SEGMENTS", skip.skippedSegments)
        if !skip.recentlyRemovedDateRanges.isEmpty {
            list.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges.joined(separator: "\t"))
        }
        out.tag("EXT-X-SKIP", list, skip.unknownAttributes)
    }

    private struct SegmentWriterState {
        var keys: [SegmentKey] = []
        var map: MediaInitializationSection?
        var bitrate: Int?
    }

    private static func write(_ segment: MediaSegment, state: inout SegmentWriterState, into out: inout TextBuilder) {
        for tag in segment.unknownTags { out.line(tag.line) }
        if segment.map != state.map, let map = segment.map { writeMap(map, state: &state, into: &out) }
        writeKeys(segment.keys, state: &state, into: &out)
        if segment.discontinuity { out.line("#EXT-X-DISCONTINUITY") }
        if segment.hasProgramDateTimeTag, let date = segment.programDateTime {
            out.line("#EXT-X-PROGRAM-DATE-TIME:\(ISO8601.format(date))")
        }
        if segment.gap { out.line("#EXT-X-GAP") }
        if segment.byteRange == nil, let bitrate = segment.bitrate, bitrate != state.bitrate {
            out.line("#EXT-X-BITRATE:\(bitrate)")
            state.bitrate = bitrate
        }
        for part in segment.parts { write(part, into: &out) }
        if let range = segment.byteRange { out.line("#EXT-X-BYTERANGE:\(rangeText(range))") }
        out.line("#EXTINF:\(decimal(segment.duration)),\(segment.title)")
        out.line(segment.uri)
    }

    /// Writes an `EXT-X-MAP` tag (after the keys it is encrypted with) and makes it the one in effect.
    private static func writeMap(
        _ map: MediaInitializationSection, state: inout SegmentWriterState, into out: inout TextBuilder
    ) {
        writeKeys(map.keys, state: &state, into: &out)
        var list = AttributeList()
        list.quoted("URI", map.uri)
        list.quoted("BYTERANGE", map.byteRange.map(rangeText))
        out.tag("EXT-X-MAP", list, map.unknownAttributes)
        state.map = map
    }

    /// Writes the `EXT-X-KEY` tags that turn the keys in effect into `keys`.
    private static func writeKeys(_ keys: [SegmentKey], state: inout SegmentWriterState, into out: inout TextBuilder) {
        guard keys != state.keys else { return }
        let formats = Set(keys.map(\.effectiveKeyFormat))
        if keys.isEmpty || state.keys.contains(where: { !formats.contains($0.effectiveKeyFormat) }) {
            out.line("#EXT-X-KEY:METHOD=NONE")
        }
        for key in keys { out.tag("EXT-X-KEY", Self.key(key)) }
        state.keys = keys
    }

    private static func write(_ part: PartialSegment, into out: inout TextBuilder) {
        var list = AttributeList()
        list.number("DURATION", part.duration)
        list.quoted("URI", part.uri)
        if part.independent { list.enumerated("INDEPENDENT", "YES") }
        list.quoted("BYTERANGE", part.byteRange.map(rangeText))
        if part.gap { list.enumerated("GAP", "YES") }
        out.tag("EXT-X-PART", list, part.unknownAttributes)
    }

    private static func rangeText(_ range: ByteRange) -> String {
        range.isOffsetExplicit ? "\(range.length)@\(range.offset)" : "\(range.length)"
    }

    static func dateRange(_ range: DateRange) -> AttributeList {
        var list = AttributeList()
        list.quoted("ID", range.id)
        list.quoted("CLASS", range.dateRangeClass)
        list.quoted("START-DATE", range.startDate.map(ISO8601.format))
        list.quoted("CUE", range.cue?.joined(separator: ","))
        list.quoted("END-DATE", range.endDate.map(ISO8601.format))
        list.number("DURATION", range.duration)
        list.number("PLANNED-DURATION", range.plannedDuration)
        list.entries += range.clientAttributes.entries
        list.enumerated("SCTE35-CMD", range.scte35Command.map(NumberGrammar.hexString))
        list.enumerated("SCTE35-OUT", range.scte35Out.map(NumberGrammar.hexString))
        list.enumerated("SCTE35-IN", range.scte35In.map(NumberGrammar.hexString))
        if range.endOnNext { list.enumerated("END-ON-NEXT", "YES") }
        list.entries += range.unknownAttributes.entries
        return list
    }
}
