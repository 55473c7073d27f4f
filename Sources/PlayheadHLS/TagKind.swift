import Foundation

/// The tags the parser interprets. Lookup hashes the name bytes (FNV-1a) so no `String` is built per tag line.
enum TagKind: UInt8, CaseIterable {
    case extm3u, version, independentSegments, start, define
    case streamInf, iFrameStreamInf, media, sessionData, sessionKey, contentSteering
    case targetDuration, mediaSequence, discontinuitySequence, endList, playlistType, iFramesOnly
    case extinf, byteRange, discontinuity, key, map, programDateTime, dateRange, gap, bitrate
    case serverControl, partInf, part, preloadHint, renditionReport, skip

    /// The name as written after `#`.
    var name: String {
        switch self {
        case .extm3u: return "EXTM3U"
        case .version: return "EXT-X-VERSION"
        case .independentSegments: return "EXT-X-INDEPENDENT-SEGMENTS"
        case .start: return "EXT-X-START"
        case .define: return "EXT-X-DEFINE"
        case .streamInf: return "EXT-X-STREAM-INF"
        case .iFrameStreamInf: return "EXT-X-I-FRAME-STREAM-INF"
        case .media: return "EXT-X-MEDIA"
        case .sessionData: return "EXT-X-SESSION-DATA"
        case .sessionKey: return "EXT-X-SESSION-KEY"
        case .contentSteering: return "EXT-X-CONTENT-STEERING"
        case .targetDuration: return "EXT-X-TARGETDURATION"
        case .mediaSequence: return "EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: return "EXT-X-DISCONTINUITY-SEQUENCE"
        case .endList: return "EXT-X-ENDLIST"
        case .playlistType: return "EXT-X-PLAYLIST-TYPE"
        case .iFramesOnly: return "EXT-X-I-FRAMES-ONLY"
        case .extinf: return "EXTINF"
        case .byteRange: return "EXT-X-BYTERANGE"
        case .discontinuity: return "EXT-X-DISCONTINUITY"
        case .key: return "EXT-X-KEY"
        case .map: return "EXT-X-MAP"
        case .programDateTime: return "EXT-X-PROGRAM-DATE-TIME"
        case .dateRange: return "EXT-X-DATERANGE"
        case .gap: return "EXT-X-GAP"
        case .bitrate: return "EXT-X-BITRATE"
        case .serverControl: return "EXT-X-SERVER-CONTROL"
        case .partInf: return "EXT-X-PART-INF"
        case .part: return "EXT-X-PART"
        case .preloadHint: return "EXT-X-PRELOAD-HINT"
        case .renditionReport: return "EXT-X-RENDITION-REPORT"
        case .skip: return "EXT-X-SKIP"
        }
    }

    /// Tags that must have a `:value`.
    var takesValue: Bool {
        switch self {
        case .extm3u, .independentSegments, .endList, .iFramesOnly, .discontinuity, .gap: return false
        default: return true
        }
    }

    /// Tags that may appear at most once (RFC 8216bis 4.4.3 and 4.4.2).
    var isOncePerPlaylist: Bool {
        switch self {
        case .version, .independentSegments, .start, .targetDuration, .mediaSequence, .discontinuitySequence,
            .endList, .playlistType, .iFramesOnly, .serverControl, .partInf, .skip, .contentSteering:
            return true
        default: return false
        }
    }

    /// Media playlist tags (forbidden in a multivariant playlist).
    var isMediaOnly: Bool {
        switch self {
        case .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType, .iFramesOnly,
            .extinf, .byteRange, .discontinuity, .key, .map, .programDateTime, .gap, .bitrate,
            .serverControl, .partInf, .part, .preloadHint, .renditionReport, .skip:
            return true
        default: return false
        }
    }

    /// Multivariant playlist tags (forbidden in a media playlist).
    var isMultivariantOnly: Bool {
        switch self {
        case .streamInf, .iFrameStreamInf, .media, .sessionData, .sessionKey, .contentSteering: return true
        default: return false
        }
    }

    private static func hash(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in start..<end { hash = (hash ^ UInt64(b[index])) &* 0x100_0000_01b3 }
        return hash
    }

    private static let table: [UInt64: (TagKind, [UInt8])] = {
        var table: [UInt64: (TagKind, [UInt8])] = [:]
        for kind in TagKind.allCases {
            let bytes = Array(kind.name.utf8)
            let key = bytes.withUnsafeBufferPointer { hash($0, 0, $0.count) }
            precondition(table[key] == nil, "tag hash collision")
            table[key] = (kind, bytes)
        }
        return table
    }()

    /// The kind of the tag whose name occupies `b[start..<end]`, or `nil` for an unknown tag.
    static func lookup(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> TagKind? {
        guard let (kind, bytes) = table[hash(b, start, end)], bytes.count == end - start else { return nil }
        for offset in 0..<bytes.count where bytes[offset] != b[start + offset] { return nil }
        return kind
    }
}

/// What the parser has collected for the segment whose URI line has not been seen yet.
struct PendingSegment {
    var duration: Double?
    var hasExtinf = false
    var extinfLine = 0
    var title = ""
    var discontinuity = false
    var byteRange: (length: Int, offset: Int?)?
    var programDateTime: Date?
    var programDateTimeLine = 0
    var gap = false
    var parts: [PartialSegment] = []
    var unknownTags: [UnknownTag] = []
}
