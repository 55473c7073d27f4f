import Foundation

/// Multivariant playlist tags and the tags both kinds of playlist share.
extension ParserState {
    mutating func handleCommonTag(
        _ kind: TagKind, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) throws(PlaylistParseError) {
        switch kind {
        case .version:
            if let version = NumberGrammar.decimalInteger(b, start, end) {
                media.version = version
                multivariant.version = version
            } else {
                try issue(.invalidValue, "#EXT-X-VERSION \"\(string(b, start, end))\" is not a decimal-integer")
            }
        case .independentSegments:
            media.independentSegments = true
            multivariant.independentSegments = true
        case .start:
            let list = try attributes(b, start, end, tag: kind)
            guard let offset = try required(try float(list, "TIME-OFFSET", kind, signed: true), "TIME-OFFSET", kind)
            else { return }
            let point = StartPoint(
                timeOffset: offset, precise: try flag(list, "PRECISE", kind),
                unknownAttributes: list.excluding(["TIME-OFFSET", "PRECISE"]))
            media.start = point
            multivariant.start = point
        case .define: try handleDefine(try attributes(b, start, end, tag: kind))
        default: break
        }
    }

    mutating func handleMultivariantTag(
        _ kind: TagKind, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) throws(PlaylistParseError) {
        let list = try attributes(b, start, end, tag: kind)
        switch kind {
        case .streamInf:
            if let previous = pendingStream {
                try issue(.missingAttribute, "#EXT-X-STREAM-INF is not followed by a URI", line: previous.line)
            }
            pendingStream = (try streamAttributes(list, kind), lineNumber)
        case .iFrameStreamInf:
            guard let uri = try required(try quoted(list, "URI", kind), "URI", kind) else { return }
            multivariant.iFrameVariants.append(
                IFrameVariant(uri: uri, baseURL: url, stream: try streamAttributes(list, kind)))
            conformance.iFrameVariantLines.append(lineNumber)
        case .media: try handleRendition(list)
        case .sessionData:
            guard let id = try required(try quoted(list, "DATA-ID", kind), "DATA-ID", kind) else { return }
            let value = try quoted(list, "VALUE", kind)
            let uri = try quoted(list, "URI", kind)
            if (value == nil) == (uri == nil) {
                try issue(.invalidValue, "#EXT-X-SESSION-DATA needs exactly one of VALUE and URI")
            }
            multivariant.sessionData.append(
                SessionData(
                    dataID: id, value: value, uri: uri, baseURL: url, format: try enumerated(list, "FORMAT", kind),
                    language: try quoted(list, "LANGUAGE", kind),
                    unknownAttributes: list.excluding(["DATA-ID", "VALUE", "URI", "FORMAT", "LANGUAGE"])))
        case .sessionKey: try handleKey(list, session: true)
        case .contentSteering:
            guard let uri = try required(try quoted(list, "SERVER-URI", kind), "SERVER-URI", kind) else { return }
            multivariant.contentSteering = ContentSteering(
                serverURI: uri, baseURL: url, pathwayID: try quoted(list, "PATHWAY-ID", kind),
                unknownAttributes: list.excluding(["SERVER-URI", "PATHWAY-ID"]))
        default: break
        }
    }

    private static let streamKeys: Set<String> = [
        "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION", "FRAME-RATE",
        "HDCP-LEVEL", "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT", "STABLE-VARIANT-ID", "AUDIO", "VIDEO",
        "SUBTITLES", "CLOSED-CAPTIONS", "PATHWAY-ID",
    ]

    private mutating func streamAttributes(
        _ list: AttributeList, _ kind: TagKind
    ) throws(PlaylistParseError) -> StreamAttributes {
        var stream = StreamAttributes(bandwidth: try required(try integer(list, "BANDWIDTH", kind), "BANDWIDTH", kind))
        stream.averageBandwidth = try integer(list, "AVERAGE-BANDWIDTH", kind)
        stream.score = try float(list, "SCORE", kind)
        stream.codecs = try quoted(list, "CODECS", kind)
        stream.supplementalCodecs = try quoted(list, "SUPPLEMENTAL-CODECS", kind)
        stream.resolution = try resolution(list, "RESOLUTION", kind)
        stream.frameRate = try float(list, "FRAME-RATE", kind)
        stream.hdcpLevel = try enumerated(list, "HDCP-LEVEL", kind)
        stream.allowedCPC = try quoted(list, "ALLOWED-CPC", kind)
        stream.videoRange = try enumerated(list, "VIDEO-RANGE", kind)
        stream.requiredVideoLayout = try quoted(list, "REQ-VIDEO-LAYOUT", kind)
        stream.stableVariantID = try quoted(list, "STABLE-VARIANT-ID", kind)
        stream.audio = try quoted(list, "AUDIO", kind)
        stream.video = try quoted(list, "VIDEO", kind)
        stream.subtitles = try quoted(list, "SUBTITLES", kind)
        if let captions = list["CLOSED-CAPTIONS"] {
            if !captions.isQuoted && captions.text == "NONE" {
                stream.closedCaptionsNone = true
            } else {
                stream.closedCaptions = try quoted(list, "CLOSED-CAPTIONS", kind)
            }
        }
        stream.pathwayID = try quoted(list, "PATHWAY-ID", kind)
        var known = Self.streamKeys
        if kind == .iFrameStreamInf { known.insert("URI") }
        stream.unknownAttributes = list.excluding(known)
        return stream
    }

    private mutating func handleRendition(_ list: AttributeList) throws(PlaylistParseError) {
        let kind = TagKind.media
        let type = try required(try enumerated(list, "TYPE", kind), "TYPE", kind)
        let group = try required(try quoted(list, "GROUP-ID", kind), "GROUP-ID", kind)
        let name = try required(try quoted(list, "NAME", kind), "NAME", kind)
        var rendition = Rendition(
            type: MediaType(rawValue: type ?? ""), groupID: group ?? "", name: name ?? "",
            uri: try quoted(list, "URI", kind), baseURL: url)
        if rendition.type == .closedCaptions && rendition.uri != nil {
            try issue(.invalidValue, "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS must not have a URI")
        }
        if rendition.type == .subtitles && rendition.uri == nil {
            try issue(.missingAttribute, "#EXT-X-MEDIA:TYPE=SUBTITLES has no URI (RFC 8216bis 4.4.6.1)")
        }
        rendition.language = try quoted(list, "LANGUAGE", kind)
        rendition.associatedLanguage = try quoted(list, "ASSOC-LANGUAGE", kind)
        rendition.stableRenditionID = try quoted(list, "STABLE-RENDITION-ID", kind)
        rendition.isDefault = try flag(list, "DEFAULT", kind)
        rendition.autoselect = try flag(list, "AUTOSELECT", kind)
        rendition.forced = try flag(list, "FORCED", kind)
        rendition.instreamID = try quoted(list, "INSTREAM-ID", kind)
        if rendition.type == .closedCaptions && rendition.instreamID == nil {
            try issue(.missingAttribute, "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS has no INSTREAM-ID (RFC 8216bis 4.4.6.1)")
        }
        if rendition.instreamID?.hasPrefix("SERVICE") == true {
            conformance.need(7, "INSTREAM-ID=\"SERVICEn\"", line: lineNumber)
        }
        rendition.bitDepth = try integer(list, "BIT-DEPTH", kind)
        rendition.sampleRate = try integer(list, "SAMPLE-RATE", kind)
        rendition.characteristics = try quoted(list, "CHARACTERISTICS", kind)
        rendition.channels = try quoted(list, "CHANNELS", kind)
        if rendition.isDefault && list["AUTOSELECT"] != nil && !rendition.autoselect {
            try issue(.invalidValue, "#EXT-X-MEDIA: DEFAULT=YES requires AUTOSELECT=YES")
        }
        rendition.unknownAttributes = list.excluding([
            "TYPE", "URI", "GROUP-ID", "LANGUAGE", "ASSOC-LANGUAGE", "NAME", "STABLE-RENDITION-ID", "DEFAULT",
            "AUTOSELECT", "FORCED", "INSTREAM-ID", "BIT-DEPTH", "SAMPLE-RATE", "CHARACTERISTICS", "CHANNELS",
        ])
        multivariant.renditions.append(rendition)
        conformance.renditionLines.append(lineNumber)
    }

    mutating func finishMultivariant() throws(PlaylistParseError) -> MultivariantPlaylist {
        if let line = firstMediaTagLine {
            try issue(.mixedPlaylist, "media playlist tags in a multivariant playlist", line: line)
        }
        if variables.contains(where: { $0.source == .import }) {
            throw PlaylistParseError(
                line: nil, kind: .undefinedVariable, message: "#EXT-X-DEFINE:IMPORT in a multivariant playlist")
        }
        try checkRenditionGroups()
        try checkVersion()
        multivariant.variables = variables
        multivariant.warnings = warnings
        return multivariant
    }
}
