import Foundation

/// Serializes playlists back to RFC 8216bis text, so tools can rewrite playlists: parsing the output gives a value
/// equal to the input (apart from `warnings`). A value type: safe from any thread.
public struct PlaylistWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The text of `playlist`.
    public func write(_ playlist: Playlist) -> String {
        switch playlist {
        case .media(let media): return write(media)
        case .multivariant(let multivariant): return write(multivariant)
        }
    }

    /// The text of a multivariant playlist.
    public func write(_ playlist: MultivariantPlaylist) -> String {
        var out = TextBuilder()
        out.line("#EXTM3U")
        if let version = playlist.version { out.line("#EXT-X-VERSION:\(version)") }
        for definition in playlist.variables { out.tag("EXT-X-DEFINE", Self.define(definition)) }
        if playlist.independentSegments { out.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { out.tag("EXT-X-START", Self.start(start)) }
        for data in playlist.sessionData {
            var list = AttributeList()
            list.quoted("DATA-ID", data.dataID)
            list.quoted("VALUE", data.value)
            list.quoted("URI", data.uri)
            list.enumerated("FORMAT", data.format)
            list.quoted("LANGUAGE", data.language)
            out.tag("EXT-X-SESSION-DATA", list, data.unknownAttributes)
        }
        for key in playlist.sessionKeys { out.tag("EXT-X-SESSION-KEY", Self.key(key)) }
        if let steering = playlist.contentSteering {
            var list = AttributeList()
            list.quoted("SERVER-URI", steering.serverURI)
            list.quoted("PATHWAY-ID", steering.pathwayID)
            out.tag("EXT-X-CONTENT-STEERING", list, steering.unknownAttributes)
        }
        for rendition in playlist.renditions { out.tag("EXT-X-MEDIA", Self.rendition(rendition)) }
        for variant in playlist.variants {
            out.tag("EXT-X-STREAM-INF", Self.stream(variant.stream, uri: nil))
            out.line(variant.uri)
        }
        for variant in playlist.iFrameVariants {
            out.tag("EXT-X-I-FRAME-STREAM-INF", Self.stream(variant.stream, uri: variant.uri))
        }
        for tag in playlist.unknownTags { out.line(tag.line) }
        return out.text
    }

    static func define(_ definition: VariableDefinition) -> AttributeList {
        var list = AttributeList()
        switch definition.source {
        case .value:
            list.quoted("NAME", definition.name)
            list.quoted("VALUE", definition.value)
        case .import: list.quoted("IMPORT", definition.name)
        case .queryParameter: list.quoted("QUERYPARAM", definition.name)
        }
        return list
    }

    static func start(_ start: StartPoint) -> AttributeList {
        var list = AttributeList()
        list.number("TIME-OFFSET", start.timeOffset)
        if start.precise { list.enumerated("PRECISE", "YES") }
        list.entries += start.unknownAttributes.entries
        return list
    }

    static func key(_ key: SegmentKey) -> AttributeList {
        var list = AttributeList()
        list.enumerated("METHOD", key.method.rawValue)
        list.quoted("URI", key.uri)
        if let iv = key.iv { list.enumerated("IV", NumberGrammar.hexString(iv)) }
        list.quoted("KEYFORMAT", key.keyFormat)
        list.quoted("KEYFORMATVERSIONS", key.keyFormatVersions)
        list.entries += key.unknownAttributes.entries
        return list
    }

    static func rendition(_ rendition: Rendition) -> AttributeList {
        var list = AttributeList()
        list.enumerated("TYPE", rendition.type.rawValue)
        list.quoted("URI", rendition.uri)
        list.quoted("GROUP-ID", rendition.groupID)
        list.quoted("LANGUAGE", rendition.language)
        list.quoted("ASSOC-LANGUAGE", rendition.associatedLanguage)
        list.quoted("NAME", rendition.name)
        list.quoted("STABLE-RENDITION-ID", rendition.stableRenditionID)
        if rendition.isDefault { list.enumerated("DEFAULT", "YES") }
        if rendition.autoselect { list.enumerated("AUTOSELECT", "YES") }
        if rendition.forced { list.enumerated("FORCED", "YES") }
        list.quoted("INSTREAM-ID", rendition.instreamID)
        list.integer("BIT-DEPTH", rendition.bitDepth)
        list.integer("SAMPLE-RATE", rendition.sampleRate)
        list.quoted("CHARACTERISTICS", rendition.characteristics)
        list.quoted("CHANNELS", rendition.channels)
        list.entries += rendition.unknownAttributes.entries
        return list
    }

    static func stream(_ stream: StreamAttributes, uri: String?) -> AttributeList {
        var list = AttributeList()
        list.integer("BANDWIDTH", stream.bandwidth)
        list.integer("AVERAGE-BANDWIDTH", stream.averageBandwidth)
        if let score = stream.score { list.number("SCORE", score) }
        list.quoted("CODECS", stream.codecs)
        list.quoted("SUPPLEMENTAL-CODECS", stream.supplementalCodecs)
        list.enumerated("RESOLUTION", stream.resolution?.description)
        if let rate = stream.frameRate { list.number("FRAME-RATE", rate) }
        list.enumerated("HDCP-LEVEL", stream.hdcpLevel)
        list.quoted("ALLOWED-CPC", stream.allowedCPC)
        list.enumerated("VIDEO-RANGE", stream.videoRange)
        list.quoted("REQ-VIDEO-LAYOUT", stream.requiredVideoLayout)
        list.quoted("STABLE-VARIANT-ID", stream.stableVariantID)
        list.quoted("AUDIO", stream.audio)
        list.quoted("VIDEO", stream.video)
        list.quoted("SUBTITLES", stream.subtitles)
        if stream.closedCaptionsNone {
            list.enumerated("CLOSED-CAPTIONS", "NONE")
        } else {
            list.quoted("CLOSED-CAPTIONS", stream.closedCaptions)
        }
        list.quoted("PATHWAY-ID", stream.pathwayID)
        list.quoted("URI", uri)
        list.entries += stream.unknownAttributes.entries
        return list
    }

    /// A decimal number without exponent, shortest form that reads back to the same `Double`.
    static func decimal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = "\(value)"
        guard text.contains("e") else { return text }
        var fixed = String(format: "%.17f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed
    }
}

/// Accumulates playlist lines.
struct TextBuilder {
    var text = ""

    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }

    mutating func tag(_ name: String, _ list: AttributeList, _ extra: AttributeList = AttributeList()) {
        text += "#\(name):\(list)"
        if !extra.isEmpty { text += (list.isEmpty ? "" : ",") + extra.description }
        text += "\n"
    }
}

extension AttributeList {
    mutating func quoted(_ name: String, _ value: String?) {
        if let value { entries.append(Entry(name: name, value: AttributeValue(value, quoted: true))) }
    }

    mutating func enumerated(_ name: String, _ value: String?) {
        if let value { entries.append(Entry(name: name, value: AttributeValue(value, quoted: false))) }
    }

    mutating func integer(_ name: String, _ value: Int?) {
        if let value { enumerated(name, String(value)) }
    }

    mutating func number(_ name: String, _ value: Double?) {
        if let value { enumerated(name, PlaylistWriter.decimal(value)) }
    }
}
