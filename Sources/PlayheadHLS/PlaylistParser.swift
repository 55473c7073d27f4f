import Foundation

/// Parses HLS playlists (RFC 8216bis): multivariant and media playlists, low-latency tags, variables.
///
/// Parsing is byte-wise over the UTF-8 text with no regular expressions; URIs are kept as written and resolved on
/// demand against the playlist URL. The default mode is lenient (accepts what real players accept and records
/// ``PlaylistWarning``s); `strict` rejects what the RFC forbids. A value type: safe from any thread.
///
/// ```swift
/// let playlist = try PlaylistParser().parse(text, url: url)
/// ```
public struct PlaylistParser: Sendable {
    /// The options in effect.
    public var options: PlaylistParserOptions

    /// Creates a parser.
    public init(options: PlaylistParserOptions = .lenient) {
        self.options = options
    }

    /// Parses playlist text loaded from `url` (used to resolve URIs and for `QUERYPARAM` variables).
    public func parse(_ text: String, url: URL? = nil) throws(PlaylistParseError) -> Playlist {
        var copy = text
        let result: Result<Playlist, PlaylistParseError> = copy.withUTF8 { buffer in
            var state = ParserState(options: options, url: url)
            do throws(PlaylistParseError) {
                try state.run(buffer)
                return .success(try state.finish())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses playlist bytes. Text that is not UTF-8 is rejected unless it starts with `#EXTM3U` and the parse is
    /// lenient (then invalid bytes are replaced and a warning is recorded).
    public func parse(_ data: Data, url: URL? = nil) throws(PlaylistParseError) -> Playlist {
        if let text = String(validating: data, as: UTF8.self) { return try parse(text, url: url) }
        let startsWithHeader = data.starts(with: Array("#EXTM3U".utf8))
        if !startsWithHeader || options.strict {
            throw PlaylistParseError(line: nil, kind: .notAPlaylist, message: "not an HLS playlist (not UTF-8 text)")
        }
        var playlist = try parse(String(decoding: data, as: UTF8.self), url: url)
        let warning = PlaylistWarning(line: nil, kind: .notAPlaylist, message: "invalid UTF-8 replaced")
        switch playlist {
        case .media(var media):
            media.warnings.insert(warning, at: 0)
            playlist = .media(media)
        case .multivariant(var multivariant):
            multivariant.warnings.insert(warning, at: 0)
            playlist = .multivariant(multivariant)
        }
        return playlist
    }

    /// Parses text that must be a media playlist.
    public func parseMediaPlaylist(_ text: String, url: URL? = nil) throws(PlaylistParseError) -> MediaPlaylist {
        guard case .media(let playlist) = try parse(text, url: url) else {
            throw PlaylistParseError(line: nil, kind: .mixedPlaylist, message: "expected a media playlist")
        }
        return playlist
    }

    /// Parses text that must be a multivariant playlist.
    public func parseMultivariantPlaylist(
        _ text: String, url: URL? = nil
    ) throws(PlaylistParseError) -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try parse(text, url: url) else {
            throw PlaylistParseError(line: nil, kind: .mixedPlaylist, message: "expected a multivariant playlist")
        }
        return playlist
    }
}

/// The mutable state of one parse. Not public; lives for the duration of `PlaylistParser.parse`.
struct ParserState {
    let options: PlaylistParserOptions
    let url: URL?
    var warnings: [PlaylistWarning] = []
    var lineNumber = 0
    var sawHeader = false
    var sawAnyTag = false
    var sawContent = false

    var variables: [VariableDefinition] = []
    var variableValues: [String: String] = [:]

    var media: MediaPlaylist
    var pending = PendingSegment()
    var currentKeys: [SegmentKey] = []
    var currentMap: MediaInitializationSection?
    var currentBitrate: Int?
    var lastRange: (uri: String, end: Int)?
    var lastPartRange: (uri: String, end: Int)?
    var seenOnce: Set<TagKind> = []
    var firstMediaTagLine: Int?
    var extinfLines: [Int] = []

    var multivariant: MultivariantPlaylist
    var pendingStream: (attributes: StreamAttributes, line: Int)?
    var firstMultivariantTagLine: Int?
    var conformance = ConformanceState()

    init(options: PlaylistParserOptions, url: URL?) {
        self.options = options
        self.url = url
        media = MediaPlaylist(url: url)
        multivariant = MultivariantPlaylist(url: url)
    }

    /// Records a problem: thrown in strict mode, a warning otherwise.
    mutating func issue(_ kind: PlaylistIssueKind, _ message: String, line: Int? = nil) throws(PlaylistParseError) {
        let at = line ?? lineNumber
        if options.strict { throw PlaylistParseError(line: at, kind: kind, message: message) }
        warnings.append(PlaylistWarning(line: at, kind: kind, message: message))
    }

    /// A problem no mode can accept.
    func failure(_ kind: PlaylistIssueKind, _ message: String) -> PlaylistParseError {
        PlaylistParseError(line: lineNumber, kind: kind, message: message)
    }

    mutating func run(_ b: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        guard let base = b.baseAddress else {
            try issue(.missingHeader, "empty playlist, no #EXTM3U", line: 1)
            return
        }
        let count = b.count
        // A segment takes at least ~30 bytes (EXTINF line and URI line); reserving avoids regrowth copies.
        media.segments.reserveCapacity(count / 32)
        extinfLines.reserveCapacity(count / 32)
        var index = 0
        if count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { index = 3 }
        while index < count {
            lineNumber += 1
            var end = count
            if let found = memchr(base + index, 0x0A, count - index) {
                end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            let next = end + 1
            var start = index
            while start < end, b[start] == 0x20 || b[start] == 0x09 || b[start] == 0x0D { start += 1 }
            while end > start, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
            index = next
            if start == end { continue }
            if !sawContent {
                let isHeader = end - start == 7 && matches(b, start, "#EXTM3U")
                if isHeader {
                    if lineNumber != 1 { try issue(.missingHeader, "#EXTM3U is not on the first line") }
                    sawHeader = true
                    sawContent = true
                    continue
                }
                if !sawHeader { try issue(.missingHeader, "the playlist does not start with #EXTM3U") }
                sawContent = true
            }
            if b[start] == 0x23 {
                if end - start >= 4, b[start + 1] == 0x45, b[start + 2] == 0x58, b[start + 3] == 0x54 {
                    try handleTag(b, start, end)
                }
            } else {
                try handleURILine(b, start, end)
            }
        }
        if !sawContent { try issue(.missingHeader, "empty playlist, no #EXTM3U", line: 1) }
    }

    func matches(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard start + count <= b.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where b[start + offset] != pointer[offset] { return false }
        return true
    }

    func string(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
    }

    mutating func handleTag(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(PlaylistParseError) {
        var colon = start + 1
        while colon < end, b[colon] != 0x3A { colon += 1 }
        let valueStart = min(colon + 1, end)
        let hasValue = colon < end
        // Fast path: EXTINF is most of a long media playlist.
        if colon - start == 7, matches(b, start, "#EXTINF") {
            sawAnyTag = true
            try handleExtinf(b, valueStart, end, hasValue: hasValue)
            return
        }
        guard let kind = TagKind.lookup(b, start + 1, colon) else {
            let tag = UnknownTag(name: string(b, start + 1, colon), value: hasValue ? string(b, valueStart, end) : nil)
            pending.unknownTags.append(tag)
            multivariant.unknownTags.append(tag)
            return
        }
        sawAnyTag = true
        if kind.takesValue && !hasValue {
            try issue(.invalidValue, "#\(kind.name) has no value")
            return
        }
        if kind.isOncePerPlaylist {
            if seenOnce.contains(kind) { try issue(.duplicateTag, "#\(kind.name) appears more than once") }
            seenOnce.insert(kind)
        }
        if kind.isMediaOnly, firstMediaTagLine == nil { firstMediaTagLine = lineNumber }
        if kind.isMultivariantOnly, firstMultivariantTagLine == nil { firstMultivariantTagLine = lineNumber }
        switch kind {
        case .extm3u:
            if sawHeader { try issue(.duplicateTag, "#EXTM3U appears more than once") }
            sawHeader = true
        case .version, .independentSegments, .start, .define: try handleCommonTag(kind, b, valueStart, end)
        case .streamInf, .iFrameStreamInf, .media, .sessionData, .sessionKey, .contentSteering:
            try handleMultivariantTag(kind, b, valueStart, end)
        case .serverControl, .partInf, .part, .preloadHint, .renditionReport, .skip:
            try handleLowLatencyTag(kind, b, valueStart, end)
        default: try handleMediaTag(kind, b, valueStart, end)
        }
    }

    mutating func finish() throws(PlaylistParseError) -> Playlist {
        if !sawHeader && sawAnyTag == false && sawContent {
            throw PlaylistParseError(line: 1, kind: .notAPlaylist, message: "not an HLS playlist (no #EXTM3U)")
        }
        lineNumber += 1
        // A multivariant tag that produced nothing (a STREAM-INF without its URI) does not make an otherwise
        // media playlist multivariant: the written form of an empty multivariant playlist would read as media.
        let m = multivariant
        let hasMultivariantContent =
            !m.variants.isEmpty || !m.iFrameVariants.isEmpty || !m.renditions.isEmpty || !m.sessionData.isEmpty
            || !m.sessionKeys.isEmpty || m.contentSteering != nil
        if let stream = pendingStream {
            try issue(.missingAttribute, "#EXT-X-STREAM-INF is not followed by a URI", line: stream.line)
        }
        if hasMultivariantContent { return .multivariant(try finishMultivariant()) }
        if let line = firstMultivariantTagLine {
            try issue(.mixedPlaylist, "multivariant playlist tags in a media playlist", line: line)
        }
        return .media(try finishMedia())
    }
}
