import Foundation

/// Media playlist tags and segment URI lines.
extension ParserState {
    mutating func handleExtinf(
        _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hasValue: Bool
    ) throws(PlaylistParseError) {
        if firstMediaTagLine == nil { firstMediaTagLine = lineNumber }
        if pending.hasExtinf { try issue(.duplicateTag, "two #EXTINF tags for one segment") }
        var comma = start
        while comma < end, b[comma] != 0x2C { comma += 1 }
        if comma == end { try issue(.invalidValue, "#EXTINF has no comma after the duration") }
        var durationEnd = comma
        while durationEnd > start, b[durationEnd - 1] == 0x20 { durationEnd -= 1 }
        var durationStart = start
        while durationStart < durationEnd, b[durationStart] == 0x20 || b[durationStart] == 0x09 { durationStart += 1 }
        if durationStart != start {
            // `#EXTINF: 11.320,`: hls.js skips the space; so does the lenient parse.
            try issue(.invalidValue, "#EXTINF: whitespace before the duration (RFC 8216bis 4.4.4.1)")
        }
        pending.hasExtinf = true
        pending.extinfLine = lineNumber
        if let duration = NumberGrammar.decimalFloat(b, durationStart, durationEnd, signed: false) {
            pending.duration = duration
            if !conformance.sawDecimalExtinf, b[durationStart..<durationEnd].contains(0x2E) {
                conformance.sawDecimalExtinf = true
                conformance.need(3, "a decimal #EXTINF duration", line: lineNumber)
            }
        } else {
            let text = string(b, durationStart, durationEnd)
            let negative = (Double(text) ?? 0) < 0
            try issue(.invalidValue, "#EXTINF duration \"\(text)\" is \(negative ? "negative" : "not a number")")
            pending.duration = nil
        }
        var titleStart = min(comma + 1, end)
        while titleStart < end, b[titleStart] == 0x20 || b[titleStart] == 0x09 { titleStart += 1 }
        pending.title = titleStart < end ? string(b, titleStart, end) : ""
    }

    mutating func handleMediaTag(
        _ kind: TagKind, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) throws(PlaylistParseError) {
        switch kind {
        case .targetDuration:
            media.targetDuration = try sequenceValue(b, start, end, kind, allowNegative: false)
            // A decimal target duration (`6.006`) is read as its integer part, as hls.js and ExoPlayer read it.
            if media.targetDuration == nil, let value = NumberGrammar.decimalFloat(b, start, end, signed: false),
                value < 1e15
            {
                media.targetDuration = Int(value)
            }
        case .mediaSequence:
            if !media.segments.isEmpty { try issue(.misplacedTag, "#EXT-X-MEDIA-SEQUENCE after the first segment") }
            media.mediaSequence = try sequenceValue(b, start, end, kind, allowNegative: true) ?? media.mediaSequence
        case .discontinuitySequence:
            if !media.segments.isEmpty {
                try issue(.misplacedTag, "#EXT-X-DISCONTINUITY-SEQUENCE after the first segment")
            }
            media.discontinuitySequence =
                try sequenceValue(b, start, end, kind, allowNegative: true) ?? media.discontinuitySequence
        case .endList: media.hasEndList = true
        case .playlistType:
            let text = string(b, start, end)
            if let type = PlaylistType(rawValue: text) {
                media.playlistType = type
            } else {
                try issue(.invalidValue, "#EXT-X-PLAYLIST-TYPE must be EVENT or VOD, not \"\(text)\"")
            }
        case .iFramesOnly:
            media.iFramesOnly = true
            conformance.need(4, "#EXT-X-I-FRAMES-ONLY", line: lineNumber)
        case .byteRange:
            conformance.need(4, "#EXT-X-BYTERANGE", line: lineNumber)
            if let (length, offset) = try byteRangeSpec(string(b, start, end), kind) {
                pending.byteRange = (length, offset)
            }
        case .discontinuity: pending.discontinuity = true
        case .programDateTime:
            if let date = ISO8601.parse(b, start, end) {
                pending.programDateTime = date
                pending.programDateTimeLine = lineNumber
            } else {
                try issue(
                    .invalidValue, "#EXT-X-PROGRAM-DATE-TIME \"\(string(b, start, end))\" is not an ISO 8601 date")
            }
        case .gap: pending.gap = true
        case .bitrate:
            if let rate = NumberGrammar.decimalInteger(b, start, end) {
                currentBitrate = rate
            } else {
                try issue(.invalidValue, "#EXT-X-BITRATE \"\(string(b, start, end))\" is not a decimal-integer")
            }
        case .key: try handleKey(try attributes(b, start, end, tag: kind), session: false)
        case .map:
            if conformance.firstMapLine == nil { conformance.firstMapLine = lineNumber }
            try handleMap(try attributes(b, start, end, tag: kind))
        case .dateRange: try handleDateRange(try attributes(b, start, end, tag: kind))
        default: break
        }
    }

    private mutating func sequenceValue(
        _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ kind: TagKind, allowNegative: Bool
    ) throws(PlaylistParseError) -> Int? {
        if let value = NumberGrammar.decimalInteger(b, start, end) { return value }
        let text = string(b, start, end)
        try issue(.invalidValue, "#\(kind.name) \"\(text)\" is not a decimal-integer")
        guard allowNegative, let value = Int(text) else { return nil }
        return value
    }

    /// `EXT-X-KEY` (segments) or `EXT-X-SESSION-KEY` (multivariant).
    mutating func handleKey(_ list: AttributeList, session: Bool) throws(PlaylistParseError) {
        let tag: TagKind = session ? .sessionKey : .key
        guard let methodText = try required(try enumerated(list, "METHOD", tag), "METHOD", tag) else { return }
        let method = KeyMethod(rawValue: methodText)
        if !session {
            if list["IV"] != nil { conformance.need(2, "the IV attribute of #EXT-X-KEY", line: lineNumber) }
            if list["KEYFORMAT"] != nil || list["KEYFORMATVERSIONS"] != nil {
                conformance.need(5, "KEYFORMAT or KEYFORMATVERSIONS in #EXT-X-KEY", line: lineNumber)
            }
            if methodText == "SAMPLE-AES" { conformance.need(5, "METHOD=SAMPLE-AES", line: lineNumber) }
        }
        if method == .none {
            if session { try issue(.invalidValue, "#EXT-X-SESSION-KEY must not have METHOD=NONE") }
            if list["URI"] != nil { try issue(.invalidValue, "#EXT-X-KEY:METHOD=NONE must not have a URI") }
            currentKeys = []
            return
        }
        let uri = try required(try quoted(list, "URI", tag), "URI", tag)
        // A longer IV is kept as written (its last 16 bytes are `initializationVector`), so a player can refuse it.
        let iv = try hex(list, "IV", tag)
        if let bytes = iv, bytes.count > 16 {
            try issue(.invalidValue, "#\(tag.name): IV is longer than 128 bits")
        }
        let key = SegmentKey(
            method: method, uri: uri, baseURL: url, iv: iv, keyFormat: try quoted(list, "KEYFORMAT", tag),
            keyFormatVersions: try quoted(list, "KEYFORMATVERSIONS", tag),
            unknownAttributes: list.excluding(["METHOD", "URI", "IV", "KEYFORMAT", "KEYFORMATVERSIONS"]),
            unreadableIV: iv == nil ? list["IV"]?.text : nil)
        if session {
            multivariant.sessionKeys.append(key)
            return
        }
        if let index = currentKeys.firstIndex(where: { $0.effectiveKeyFormat == key.effectiveKeyFormat }) {
            currentKeys[index] = key
        } else {
            currentKeys.append(key)
        }
    }

    private mutating func handleMap(_ list: AttributeList) throws(PlaylistParseError) {
        guard let uri = try required(try quoted(list, "URI", .map), "URI", .map) else { return }
        var range: ByteRange?
        if let text = try quoted(list, "BYTERANGE", .map), let (length, offset) = try byteRangeSpec(text, .map) {
            range = ByteRange(length: length, offset: offset ?? 0, isOffsetExplicit: offset != nil)
        }
        currentMap = MediaInitializationSection(
            uri: uri, baseURL: url, byteRange: range, keys: currentKeys,
            unknownAttributes: list.excluding(["URI", "BYTERANGE"]))
    }

    private mutating func handleDateRange(_ list: AttributeList) throws(PlaylistParseError) {
        let tag = TagKind.dateRange
        guard let id = try required(try quoted(list, "ID", tag), "ID", tag) else { return }
        try checkDateRange(id: id, list)
        var range = DateRange(id: id)
        range.dateRangeClass = try quoted(list, "CLASS", tag)
        range.startDate = try date(list, "START-DATE")
        range.cue = try quoted(list, "CUE", tag).map { $0.split(separator: ",").map(String.init) }
        range.endDate = try date(list, "END-DATE")
        range.duration = try float(list, "DURATION", tag)
        range.plannedDuration = try float(list, "PLANNED-DURATION", tag)
        if list["END-ON-NEXT"] != nil {
            range.endOnNext = try enumerated(list, "END-ON-NEXT", tag) == "YES"
            if !range.endOnNext { try issue(.invalidValue, "#EXT-X-DATERANGE: END-ON-NEXT must be YES") }
            if range.dateRangeClass == nil { try issue(.missingAttribute, "END-ON-NEXT=YES requires CLASS") }
        }
        range.scte35Command = try hex(list, "SCTE35-CMD", tag)
        range.scte35Out = try hex(list, "SCTE35-OUT", tag)
        range.scte35In = try hex(list, "SCTE35-IN", tag)
        let known: Set<String> = [
            "ID", "CLASS", "START-DATE", "CUE", "END-DATE", "DURATION", "PLANNED-DURATION", "END-ON-NEXT",
            "SCTE35-CMD", "SCTE35-OUT", "SCTE35-IN",
        ]
        for entry in list.entries where !known.contains(entry.name) {
            if entry.name.hasPrefix("X-") {
                range.clientAttributes.entries.append(entry)
            } else {
                range.unknownAttributes.entries.append(entry)
            }
        }
        media.dateRanges.append(range)
    }

    private mutating func date(_ list: AttributeList, _ name: String) throws(PlaylistParseError) -> Date? {
        guard let text = try quoted(list, name, .dateRange) else { return nil }
        if let date = ISO8601.parse(text) { return date }
        try issue(.invalidValue, "#EXT-X-DATERANGE: \(name) \"\(text)\" is not an ISO 8601 date")
        return nil
    }
}
