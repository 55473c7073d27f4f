import Foundation

@testable import PlayheadHLS

/// Projects our model onto the shape of videojs/m3u8-parser's output, field by field, so the conformance test can
/// compare the fields both models share. Every value here is computed from our parsed model.
enum VideojsProjection {
    static func project(_ playlist: Playlist) -> JSONValue {
        switch playlist {
        case .media(let media): return .object(project(media))
        case .multivariant(let multivariant): return .object(project(multivariant))
        }
    }

    // MARK: Media playlists

    static func project(_ playlist: MediaPlaylist) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        let allUnknown = playlist.segments.flatMap(\.unknownTags) + playlist.unknownTags
        let allowCache = allUnknown.last { $0.name == "EXT-X-ALLOW-CACHE" }?.value?.uppercased() != "NO"
        out["allowCache"] = .bool(allowCache)
        out["dateRanges"] = .array(playlist.dateRanges.map { .string($0.id) })
        out["iFramePlaylists"] = .array([])
        out["discontinuityStarts"] = .array(
            playlist.segments.indices.filter { playlist.segments[$0].discontinuity }.map { .number(Double($0)) })
        out["segments"] = .array(playlist.segments.map { .object(project($0)) })
        if !playlist.segments.isEmpty {
            out["mediaSequence"] = .number(Double(playlist.mediaSequence))
            out["discontinuitySequence"] = .number(Double(playlist.discontinuitySequence))
        }
        if let target = playlist.targetDuration { out["targetDuration"] = .number(Double(target)) }
        if let version = playlist.version { out["version"] = .number(Double(version)) }
        if let type = playlist.playlistType { out["playlistType"] = .string(type.rawValue) }
        if playlist.hasEndList { out["endList"] = .bool(true) }
        if playlist.iFramesOnly { out["iFramesOnly"] = .bool(true) }
        if playlist.independentSegments { out["independentSegments"] = .bool(true) }
        if let start = playlist.start {
            out["start"] = .object(["timeOffset": .number(start.timeOffset), "precise": .bool(start.precise)])
        }
        if let first = playlist.segments.first(where: \.hasProgramDateTimeTag), let date = first.programDateTime {
            out["dateTimeObject"] = .string(ISO8601.format(date))
            out["dateTimeString"] = .string(ISO8601.format(date))
        }
        if let control = playlist.serverControl { out["serverControl"] = .object(project(control)) }
        if let info = playlist.partInformation {
            out["partInf"] = .object(["partTarget": .number(info.partTarget)])
            out["partTargetDuration"] = .number(info.partTarget)
        }
        if let skip = playlist.skip {
            var object: [String: JSONValue] = ["skippedSegments": .number(Double(skip.skippedSegments))]
            if !skip.recentlyRemovedDateRanges.isEmpty {
                object["recentlyRemovedDateranges"] = .array(skip.recentlyRemovedDateRanges.map { .string($0) })
            }
            out["skip"] = .object(object)
        }
        if !playlist.renditionReports.isEmpty {
            out["renditionReports"] = .array(
                playlist.renditionReports.map { report in
                    var object: [String: JSONValue] = ["uri": .string(report.uri)]
                    if let msn = report.lastMediaSequence { object["lastMsn"] = .number(Double(msn)) }
                    if let part = report.lastPart { object["lastPart"] = .number(Double(part)) }
                    return .object(object)
                })
        }
        if !playlist.trailingParts.isEmpty || !playlist.preloadHints.isEmpty {
            var preload: [String: JSONValue] = [:]
            if !playlist.trailingParts.isEmpty { preload["parts"] = .array(playlist.trailingParts.map(project)) }
            if !playlist.preloadHints.isEmpty {
                preload["preloadHints"] = .array(
                    playlist.preloadHints.map { hint in
                        var object: [String: JSONValue] = ["type": .string(hint.type), "uri": .string(hint.uri)]
                        if let length = hint.byteRangeLength {
                            object["byterange"] = range(length, hint.byteRangeStart ?? 0)
                        }
                        return .object(object)
                    })
            }
            out["preloadSegment"] = .object(preload)
        }
        return out
    }

    static func project(_ segment: MediaSegment) -> [String: JSONValue] {
        var out: [String: JSONValue] = [
            "uri": .string(segment.uri), "duration": .number(segment.duration),
            "timeline": .number(Double(segment.discontinuitySequence)),
        ]
        if !segment.title.isEmpty { out["title"] = .string(segment.title) }
        if segment.discontinuity { out["discontinuity"] = .bool(true) }
        if let byteRange = segment.byteRange { out["byterange"] = range(byteRange.length, byteRange.offset) }
        if let key = segment.key { out["key"] = project(key) }
        if let map = segment.map {
            var object: [String: JSONValue] = ["uri": .string(map.uri)]
            if let byteRange = map.byteRange { object["byterange"] = range(byteRange.length, byteRange.offset) }
            if let key = map.keys.first { object["key"] = project(key) }
            out["map"] = .object(object)
        }
        if let date = segment.programDateTime {
            out["programDateTime"] = .number(date.timeIntervalSince1970 * 1000)
            if segment.hasProgramDateTimeTag {
                out["dateTimeObject"] = .string(ISO8601.format(date))
                out["dateTimeString"] = .string(ISO8601.format(date))
            }
        }
        if segment.gap { out["gap"] = .bool(true) }
        if !segment.parts.isEmpty { out["parts"] = .array(segment.parts.map(project)) }
        return out
    }

    static func project(_ part: PartialSegment) -> JSONValue {
        var object: [String: JSONValue] = ["duration": .number(part.duration), "uri": .string(part.uri)]
        if part.independent { object["independent"] = .bool(true) }
        if part.gap { object["gap"] = .bool(true) }
        if let byteRange = part.byteRange { object["byterange"] = range(byteRange.length, byteRange.offset) }
        return .object(object)
    }

    static func project(_ key: SegmentKey) -> JSONValue {
        var object: [String: JSONValue] = ["method": .string(key.method.rawValue)]
        if let uri = key.uri { object["uri"] = .string(uri) }
        if let iv = key.iv {
            let padded = key.initializationVector(mediaSequence: 0)
            let words = stride(from: 0, to: 16, by: 4).map { index in
                padded[index..<index + 4].reduce(0.0) { $0 * 256 + Double($1) }
            }
            object["iv"] = .object([
                "hex": .string(NumberGrammar.hexString(iv)), "uint32": .array(words.map { .number($0) }),
            ])
        }
        return .object(object)
    }

    static func project(_ control: ServerControl) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "canBlockReload": .bool(control.canBlockReload), "canSkipDateranges": .bool(control.canSkipDateRanges),
        ]
        if let value = control.canSkipUntil { object["canSkipUntil"] = .number(value) }
        if let value = control.holdBack { object["holdBack"] = .number(value) }
        if let value = control.partHoldBack { object["partHoldBack"] = .number(value) }
        return object
    }

    static func range(_ length: Int, _ offset: Int) -> JSONValue {
        .object(["length": .number(Double(length)), "offset": .number(Double(offset))])
    }

    // MARK: Multivariant playlists

    static func project(_ playlist: MultivariantPlaylist) -> [String: JSONValue] {
        var out: [String: JSONValue] = [
            "allowCache": .bool(true), "dateRanges": .array([]), "discontinuityStarts": .array([]),
            "segments": .array([]),
        ]
        out["playlists"] = .array(
            playlist.variants.map { variant in
                var object: [String: JSONValue] = ["uri": .string(variant.uri), "timeline": .number(0)]
                let attributes = project(variant.stream, uri: nil)
                if !attributes.isEmpty { object["attributes"] = .object(attributes) }
                return .object(object)
            })
        out["iFramePlaylists"] = .array(
            playlist.iFrameVariants.map { variant in
                .object([
                    "uri": .string(variant.uri), "timeline": .number(0),
                    "attributes": .object(project(variant.stream, uri: variant.uri)),
                ])
            })
        var groups: [String: JSONValue] = [:]
        for type in [MediaType.audio, .video, .closedCaptions, .subtitles] {
            var byGroup: [String: JSONValue] = [:]
            for (groupID, renditions) in playlist.renditionGroups(of: type) {
                var byName: [String: JSONValue] = [:]
                for rendition in renditions {
                    var object: [String: JSONValue] = [
                        "default": .bool(rendition.isDefault), "autoselect": .bool(rendition.autoselect),
                    ]
                    if let language = rendition.language { object["language"] = .string(language) }
                    if let uri = rendition.uri { object["uri"] = .string(uri) }
                    if let id = rendition.instreamID { object["instreamId"] = .string(id) }
                    if let value = rendition.characteristics { object["characteristics"] = .string(value) }
                    if type == .subtitles { object["forced"] = .bool(rendition.forced) }
                    byName[rendition.name] = .object(object)
                }
                byGroup[groupID] = .object(byName)
            }
            groups[type.rawValue] = .object(byGroup)
        }
        out["mediaGroups"] = .object(groups)
        if let version = playlist.version { out["version"] = .number(Double(version)) }
        if playlist.independentSegments { out["independentSegments"] = .bool(true) }
        return out
    }

    static func project(_ stream: StreamAttributes, uri: String?) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        if let value = stream.bandwidth { object["BANDWIDTH"] = .number(Double(value)) }
        if let value = stream.averageBandwidth { object["AVERAGE-BANDWIDTH"] = .number(Double(value)) }
        if let value = stream.codecs { object["CODECS"] = .string(value) }
        if let value = stream.resolution {
            object["RESOLUTION"] = .object([
                "width": .number(Double(value.width)), "height": .number(Double(value.height)),
            ])
        }
        if let value = stream.frameRate { object["FRAME-RATE"] = .number(value) }
        if let value = stream.hdcpLevel { object["HDCP-LEVEL"] = .string(value) }
        if let value = stream.videoRange { object["VIDEO-RANGE"] = .string(value) }
        if let value = stream.audio { object["AUDIO"] = .string(value) }
        if let value = stream.video { object["VIDEO"] = .string(value) }
        if let value = stream.subtitles { object["SUBTITLES"] = .string(value) }
        if let value = stream.closedCaptions { object["CLOSED-CAPTIONS"] = .string(value) }
        if stream.closedCaptionsNone { object["CLOSED-CAPTIONS"] = .string("NONE") }
        if let uri { object["URI"] = .string(uri) }
        for entry in stream.unknownAttributes.entries {
            if !entry.value.isQuoted, let number = NumberGrammar.decimalInteger(entry.value.text) {
                object[entry.name] = .number(Double(number))
            } else {
                object[entry.name] = .string(entry.value.text)
            }
        }
        return object
    }
}
