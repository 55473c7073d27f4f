import Foundation

/// The machine-readable form of a parsed playlist used by `playhead probe --json`; the schema is documented in
/// `docs/probe-json.md`. Every key is always present (`null` when a value is absent); numbers are JSON numbers,
/// times are seconds, dates ISO 8601 in UTC with milliseconds, IVs and SCTE-35 data `0x`-prefixed hexadecimal,
/// and every URI appears as written (`uri`) and resolved against the playlist URL (`resolvedURI`).
/// A stateless namespace: safe from any thread.
public enum PlaylistJSON {
    /// The JSON document for `playlist`, pretty-printed with sorted keys.
    public static func data(for playlist: Playlist) -> Data {
        Data(JSONText.encode(dictionary(for: playlist)).utf8)
    }

    /// The JSON document as Foundation objects (`[String: Any]`), for callers that embed it.
    public static func dictionary(for playlist: Playlist) -> [String: Any] {
        switch playlist {
        case .media(let media):
            return [
                "type": "media", "url": value(media.url?.absoluteString), "warnings": warnings(media.warnings),
                "playlist": dictionary(for: media),
            ]
        case .multivariant(let multivariant):
            return [
                "type": "multivariant", "url": value(multivariant.url?.absoluteString),
                "warnings": warnings(multivariant.warnings), "playlist": dictionary(for: multivariant),
            ]
        }
    }

    static func dictionary(for playlist: MediaPlaylist) -> [String: Any] {
        [
            "version": value(playlist.version), "targetDuration": value(playlist.targetDuration),
            "mediaSequence": playlist.mediaSequence, "discontinuitySequence": playlist.discontinuitySequence,
            "playlistType": value(playlist.playlistType?.rawValue), "endList": playlist.hasEndList,
            "iFramesOnly": playlist.iFramesOnly, "independentSegments": playlist.independentSegments,
            "live": playlist.isLive, "totalDuration": playlist.totalDuration,
            "segmentCount": playlist.segments.count, "start": value(playlist.start.map(start)),
            "serverControl": value(
                playlist.serverControl.map { control -> [String: Any] in
                    [
                        "canSkipUntil": value(control.canSkipUntil), "canSkipDateRanges": control.canSkipDateRanges,
                        "holdBack": value(control.holdBack), "partHoldBack": value(control.partHoldBack),
                        "canBlockReload": control.canBlockReload,
                    ]
                }),
            "partInformation": value(playlist.partInformation.map { ["partTarget": $0.partTarget] }),
            "skip": value(
                playlist.skip.map { skip -> [String: Any] in
                    [
                        "skippedSegments": skip.skippedSegments,
                        "recentlyRemovedDateRanges": skip.recentlyRemovedDateRanges,
                    ]
                }),
            "preloadHints": playlist.preloadHints.map { hint -> [String: Any] in
                [
                    "type": hint.type, "uri": hint.uri, "resolvedURI": value(hint.url?.absoluteString),
                    "byteRangeStart": value(hint.byteRangeStart), "byteRangeLength": value(hint.byteRangeLength),
                ]
            },
            "renditionReports": playlist.renditionReports.map { report -> [String: Any] in
                [
                    "uri": report.uri, "resolvedURI": value(report.url?.absoluteString),
                    "lastMediaSequence": value(report.lastMediaSequence), "lastPart": value(report.lastPart),
                ]
            },
            "dateRanges": playlist.dateRanges.map(dateRange), "variables": variables(playlist.variables),
            "segments": playlist.segments.map(segment), "trailingParts": playlist.trailingParts.map(part),
            "unknownTags": playlist.unknownTags.map(tag),
        ]
    }

    static func segment(_ segment: MediaSegment) -> [String: Any] {
        [
            "mediaSequence": segment.mediaSequence, "uri": segment.uri,
            "resolvedURI": value(segment.url?.absoluteString), "duration": segment.duration, "title": segment.title,
            "byteRange": value(segment.byteRange.map(byteRange)), "discontinuity": segment.discontinuity,
            "discontinuitySequence": segment.discontinuitySequence,
            "key": value(segment.key.map { key(segment.initializationVector(for: $0), $0) }),
            "keys": segment.keys.map { key(segment.initializationVector(for: $0), $0) },
            "map": value(
                segment.map.map { map -> [String: Any] in
                    [
                        "uri": map.uri, "resolvedURI": value(map.url?.absoluteString),
                        "byteRange": value(map.byteRange.map(byteRange)),
                    ]
                }),
            "programDateTime": value(segment.programDateTime.map(ISO8601.format)),
            "programDateTimeTag": segment.hasProgramDateTimeTag, "gap": segment.gap,
            "bitrate": value(segment.bitrate), "parts": segment.parts.map(part),
            "unknownTags": segment.unknownTags.map(tag),
        ]
    }

    static func part(_ part: PartialSegment) -> [String: Any] {
        [
            "uri": part.uri, "resolvedURI": value(part.url?.absoluteString), "duration": part.duration,
            "independent": part.independent, "byteRange": value(part.byteRange.map(byteRange)), "gap": part.gap,
        ]
    }

    /// A key; `iv` is the effective IV for the segment (explicit, or from its media sequence number).
    static func key(_ iv: [UInt8]?, _ key: SegmentKey) -> [String: Any] {
        [
            "method": key.method.rawValue, "uri": value(key.uri), "resolvedURI": value(key.url?.absoluteString),
            "iv": value(iv.map(NumberGrammar.hexString)), "ivExplicit": key.iv != nil,
            "keyFormat": key.effectiveKeyFormat, "keyFormatVersions": value(key.keyFormatVersions),
        ]
    }

    static func byteRange(_ range: ByteRange) -> [String: Any] {
        ["length": range.length, "offset": range.offset, "offsetExplicit": range.isOffsetExplicit]
    }

    static func start(_ start: StartPoint) -> [String: Any] {
        ["timeOffset": start.timeOffset, "precise": start.precise]
    }

    static func dateRange(_ range: DateRange) -> [String: Any] {
        var client: [String: Any] = [:]
        for entry in range.clientAttributes.entries { client[entry.name] = entry.value.text }
        return [
            "id": range.id, "class": value(range.dateRangeClass),
            "startDate": value(range.startDate.map(ISO8601.format)),
            "endDate": value(range.endDate.map(ISO8601.format)),
            "cue": value(range.cue), "duration": value(range.duration), "plannedDuration": value(range.plannedDuration),
            "endOnNext": range.endOnNext, "scte35Cmd": value(range.scte35Command.map(NumberGrammar.hexString)),
            "scte35Out": value(range.scte35Out.map(NumberGrammar.hexString)),
            "scte35In": value(range.scte35In.map(NumberGrammar.hexString)), "clientAttributes": client,
        ]
    }

    static func variables(_ variables: [VariableDefinition]) -> [[String: Any]] {
        variables.map { definition in
            let source: String
            switch definition.source {
            case .value: source = "value"
            case .import: source = "import"
            case .queryParameter: source = "queryparam"
            }
            return ["name": definition.name, "value": definition.value, "source": source]
        }
    }

    static func tag(_ tag: UnknownTag) -> [String: Any] {
        ["name": tag.name, "value": value(tag.value)]
    }

    static func attributes(_ list: AttributeList) -> [String: Any] {
        var out: [String: Any] = [:]
        for entry in list.entries { out[entry.name] = entry.value.text }
        return out
    }

    static func warnings(_ warnings: [PlaylistWarning]) -> [[String: Any]] {
        warnings.map { ["line": value($0.line), "kind": $0.kind.rawValue, "message": $0.message] }
    }

    /// `NSNull()` for `nil`, so every key is present.
    static func value<T>(_ optional: T?) -> Any {
        if let optional { return optional }
        return NSNull()
    }
}
