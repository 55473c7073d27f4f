import Foundation

extension PlaylistJSON {
    static func dictionary(for playlist: MultivariantPlaylist) -> [String: Any] {
        [
            "version": value(playlist.version), "independentSegments": playlist.independentSegments,
            "start": value(playlist.start.map(start)),
            "variants": playlist.variants.map { variant -> [String: Any] in
                var object = stream(variant.stream)
                object["uri"] = variant.uri
                object["resolvedURI"] = value(variant.url?.absoluteString)
                return object
            },
            "iFrameVariants": playlist.iFrameVariants.map { variant -> [String: Any] in
                var object = stream(variant.stream)
                object["uri"] = variant.uri
                object["resolvedURI"] = value(variant.url?.absoluteString)
                return object
            },
            "renditions": playlist.renditions.map(rendition),
            "sessionData": playlist.sessionData.map { data -> [String: Any] in
                [
                    "dataID": data.dataID, "value": value(data.value), "uri": value(data.uri),
                    "resolvedURI": value(data.url?.absoluteString), "format": value(data.format),
                    "language": value(data.language),
                ]
            },
            "sessionKeys": playlist.sessionKeys.map { key($0.iv, $0) },
            "contentSteering": value(
                playlist.contentSteering.map { steering -> [String: Any] in
                    [
                        "serverURI": steering.serverURI, "resolvedServerURI": value(steering.serverURL?.absoluteString),
                        "pathwayID": value(steering.pathwayID),
                    ]
                }),
            "variables": variables(playlist.variables), "unknownTags": playlist.unknownTags.map(tag),
        ]
    }

    static func stream(_ stream: StreamAttributes) -> [String: Any] {
        [
            "bandwidth": value(stream.bandwidth), "averageBandwidth": value(stream.averageBandwidth),
            "score": value(stream.score), "codecs": value(stream.codecs),
            "supplementalCodecs": value(stream.supplementalCodecs),
            "resolution": value(stream.resolution.map { ["width": $0.width, "height": $0.height] }),
            "frameRate": value(stream.frameRate), "hdcpLevel": value(stream.hdcpLevel),
            "allowedCPC": value(stream.allowedCPC), "videoRange": value(stream.videoRange),
            "requiredVideoLayout": value(stream.requiredVideoLayout), "stableVariantID": value(stream.stableVariantID),
            "audio": value(stream.audio), "video": value(stream.video), "subtitles": value(stream.subtitles),
            "closedCaptions": value(stream.closedCaptionsNone ? "NONE" : stream.closedCaptions),
            "pathwayID": value(stream.pathwayID), "otherAttributes": attributes(stream.unknownAttributes),
        ]
    }

    static func rendition(_ rendition: Rendition) -> [String: Any] {
        [
            "type": rendition.type.rawValue, "groupID": rendition.groupID, "name": rendition.name,
            "language": value(rendition.language), "associatedLanguage": value(rendition.associatedLanguage),
            "uri": value(rendition.uri), "resolvedURI": value(rendition.url?.absoluteString),
            "default": rendition.isDefault, "autoselect": rendition.autoselect, "forced": rendition.forced,
            "instreamID": value(rendition.instreamID), "bitDepth": value(rendition.bitDepth),
            "sampleRate": value(rendition.sampleRate), "characteristics": value(rendition.characteristics),
            "channels": value(rendition.channels), "stableRenditionID": value(rendition.stableRenditionID),
            "otherAttributes": attributes(rendition.unknownAttributes),
        ]
    }
}
