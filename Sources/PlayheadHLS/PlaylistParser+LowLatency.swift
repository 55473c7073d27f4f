import Foundation

/// Low-latency HLS tags: server control, parts, preload hints, rendition reports and delta updates.
extension ParserState {
    mutating func handleLowLatencyTag(
        _ kind: TagKind, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) throws(PlaylistParseError) {
        let list = try attributes(b, start, end, tag: kind)
        switch kind {
        case .serverControl:
            media.serverControl = ServerControl(
                canSkipUntil: try float(list, "CAN-SKIP-UNTIL", kind),
                canSkipDateRanges: try flag(list, "CAN-SKIP-DATERANGES", kind),
                holdBack: try float(list, "HOLD-BACK", kind),
                partHoldBack: try float(list, "PART-HOLD-BACK", kind),
                canBlockReload: try flag(list, "CAN-BLOCK-RELOAD", kind),
                unknownAttributes: list.excluding([
                    "CAN-SKIP-UNTIL", "CAN-SKIP-DATERANGES", "HOLD-BACK", "PART-HOLD-BACK", "CAN-BLOCK-RELOAD",
                ]))
        case .partInf:
            if let target = try required(try float(list, "PART-TARGET", kind), "PART-TARGET", kind) {
                media.partInformation = PartInformation(
                    partTarget: target, unknownAttributes: list.excluding(["PART-TARGET"]))
            }
        case .part: try handlePart(list)
        case .preloadHint:
            guard let type = try required(try enumerated(list, "TYPE", kind), "TYPE", kind),
                let uri = try required(try quoted(list, "URI", kind), "URI", kind)
            else { return }
            media.preloadHints.append(
                PreloadHint(
                    type: type, uri: uri, baseURL: url, byteRangeStart: try integer(list, "BYTERANGE-START", kind),
                    byteRangeLength: try integer(list, "BYTERANGE-LENGTH", kind),
                    unknownAttributes: list.excluding(["TYPE", "URI", "BYTERANGE-START", "BYTERANGE-LENGTH"])))
        case .renditionReport:
            guard let uri = try required(try quoted(list, "URI", kind), "URI", kind) else { return }
            media.renditionReports.append(
                RenditionReport(
                    uri: uri, baseURL: url, lastMediaSequence: try integer(list, "LAST-MSN", kind),
                    lastPart: try integer(list, "LAST-PART", kind),
                    unknownAttributes: list.excluding(["URI", "LAST-MSN", "LAST-PART"])))
        case .skip:
            if !media.segments.isEmpty { try issue(.misplacedTag, "#EXT-X-SKIP after the first segment") }
            conformance.skipSegmentIndex = media.segments.count
            conformance.need(9, "#EXT-X-SKIP", line: lineNumber)
            if list["RECENTLY-REMOVED-DATERANGES"] != nil {
                conformance.need(10, "#EXT-X-SKIP with RECENTLY-REMOVED-DATERANGES", line: lineNumber)
            }
            guard let count = try required(try integer(list, "SKIPPED-SEGMENTS", kind), "SKIPPED-SEGMENTS", kind)
            else { return }
            let removed = try quoted(list, "RECENTLY-REMOVED-DATERANGES", kind) ?? ""
            media.skip = SkipInfo(
                skippedSegments: count,
                recentlyRemovedDateRanges: removed.split(separator: "\t").map(String.init),
                unknownAttributes: list.excluding(["SKIPPED-SEGMENTS", "RECENTLY-REMOVED-DATERANGES"]))
        default: break
        }
    }

    private mutating func handlePart(_ list: AttributeList) throws(PlaylistParseError) {
        let kind = TagKind.part
        guard let uri = try required(try quoted(list, "URI", kind), "URI", kind),
            let duration = try required(try float(list, "DURATION", kind), "DURATION", kind)
        else { return }
        if media.partInformation == nil { try issue(.misplacedTag, "#EXT-X-PART without #EXT-X-PART-INF") }
        var range: ByteRange?
        if let text = try quoted(list, "BYTERANGE", kind), let (length, offset) = try byteRangeSpec(text, kind) {
            if let offset {
                range = ByteRange(length: length, offset: offset, isOffsetExplicit: true)
            } else {
                var implied = 0
                if let last = lastPartRange, last.uri == uri {
                    implied = last.end
                } else {
                    try issue(.invalidByteRange, "#EXT-X-PART BYTERANGE without offset and no previous part of \(uri)")
                }
                range = ByteRange(length: length, offset: implied, isOffsetExplicit: false)
            }
        }
        lastPartRange = range.map { (uri, $0.end) }
        pending.parts.append(
            PartialSegment(
                uri: uri, baseURL: url, duration: duration, independent: try flag(list, "INDEPENDENT", kind),
                byteRange: range, gap: try flag(list, "GAP", kind),
                unknownAttributes: list.excluding(["URI", "DURATION", "INDEPENDENT", "BYTERANGE", "GAP"])))
    }
}
