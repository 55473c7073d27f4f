import Foundation

/// What the conformance checks that need the whole playlist remember while it is read: the lines of renditions
/// and variants, the attributes of each `EXT-X-DATERANGE` ID, and the first use of each feature that needs a
/// protocol version. Not public; lives for one parse.
struct ConformanceState {
    /// The line of each rendition, parallel to `MultivariantPlaylist.renditions`.
    var renditionLines: [Int] = []
    /// The `EXT-X-STREAM-INF` line of each variant, parallel to `MultivariantPlaylist.variants`.
    var variantLines: [Int] = []
    /// The line of each I-frame variant, parallel to `MultivariantPlaylist.iFrameVariants`.
    var iFrameVariantLines: [Int] = []
    /// The attributes seen so far for each `EXT-X-DATERANGE` ID, with the line that first gave each.
    var dateRanges: [String: [String: (value: AttributeValue, line: Int)]] = [:]
    /// Features that need an `EXT-X-VERSION`: the first line of each, by description.
    var versionNeeds: [String: (version: Int, line: Int)] = [:]
    /// The line of the first `EXT-X-MAP` (it needs version 5 in an I-frame playlist, 6 otherwise).
    var firstMapLine: Int?
    /// The number of segments listed before `EXT-X-SKIP` (0 when it comes first, as it must).
    var skipSegmentIndex = 0
    /// Whether an `EXTINF` duration with a decimal point has been seen (it needs version 3).
    var sawDecimalExtinf = false

    /// Records that `what` (first seen at `line`) needs protocol version `version`.
    mutating func need(_ version: Int, _ what: String, line: Int) {
        if versionNeeds[what] == nil { versionNeeds[what] = (version, line) }
    }
}

extension ParserState {
    /// RFC 8216bis section 8: each tag or attribute newer than the playlist's `EXT-X-VERSION` (1 when absent) is
    /// an issue at the line of its first use.
    mutating func checkVersion() throws(PlaylistParseError) {
        var needs = conformance.versionNeeds
        if let line = conformance.firstMapLine {
            let iFrames = media.iFramesOnly
            needs[iFrames ? "EXT-X-MAP in an I-frame playlist" : "EXT-X-MAP"] = (iFrames ? 5 : 6, line)
        }
        let declared = media.version ?? 1
        let late = needs.filter { $0.value.version > declared }.sorted {
            ($0.value.line, $0.key) < ($1.value.line, $1.key)
        }
        for (what, need) in late {
            try issue(
                .incompatibleVersion,
                "\(what) needs EXT-X-VERSION \(need.version) or higher, the playlist declares \(declared) "
                    + "(RFC 8216bis section 8)", line: need.line)
        }
    }

    /// RFC 8216bis 4.4.5.1: two `EXT-X-DATERANGE` tags with one `ID` give every attribute they share one value.
    mutating func checkDateRange(id: String, _ list: AttributeList) throws(PlaylistParseError) {
        var known = conformance.dateRanges[id] ?? [:]
        for entry in list.entries {
            if let earlier = known[entry.name] {
                if earlier.value != entry.value {
                    try issue(
                        .protocolViolation,
                        "#EXT-X-DATERANGE ID=\"\(id)\": \(entry.name)=\(entry.value) differs from "
                            + "\(entry.name)=\(earlier.value) on line \(earlier.line) (RFC 8216bis 4.4.5.1)")
                }
            } else {
                known[entry.name] = (entry.value, lineNumber)
            }
        }
        conformance.dateRanges[id] = known
    }

    /// RFC 8216bis 4.4.6.1.1 and 4.4.6.2.1: at most one `DEFAULT=YES` and no two equal `NAME`s in a group of
    /// renditions, and every `AUDIO`, `VIDEO` and `SUBTITLES` group a variant names is defined by an
    /// `EXT-X-MEDIA` of that type. Issues come in line order.
    mutating func checkRenditionGroups() throws(PlaylistParseError) {
        struct GroupKey: Hashable {
            let type: String
            let id: String
        }
        var problems: [(line: Int, kind: PlaylistIssueKind, message: String)] = []
        var defaults: [GroupKey: Int] = [:]
        var names: [GroupKey: [String: Int]] = [:]
        for (index, rendition) in multivariant.renditions.enumerated() {
            let key = GroupKey(type: rendition.type.rawValue, id: rendition.groupID)
            let line = conformance.renditionLines[index]
            let group = "\(rendition.type) group \"\(rendition.groupID)\""
            if rendition.isDefault {
                if let first = defaults[key] {
                    problems.append(
                        (
                            line, .protocolViolation,
                            "#EXT-X-MEDIA: a second DEFAULT=YES in the \(group) (the first is on line \(first)) "
                                + "(RFC 8216bis 4.4.6.1.1)"
                        ))
                } else {
                    defaults[key] = line
                }
            }
            if let first = names[key, default: [:]][rendition.name] {
                problems.append(
                    (
                        line, .protocolViolation,
                        "#EXT-X-MEDIA: NAME=\"\(rendition.name)\" appears twice in the \(group) (first on line "
                            + "\(first)) (RFC 8216bis 4.4.6.1.1)"
                    ))
            } else {
                names[key, default: [:]][rendition.name] = line
            }
        }
        let streams =
            zip(multivariant.variants.map(\.stream), conformance.variantLines).map { ($0, $1, TagKind.streamInf) }
            + zip(multivariant.iFrameVariants.map(\.stream), conformance.iFrameVariantLines).map {
                ($0, $1, TagKind.iFrameStreamInf)
            }
        for (stream, line, tag) in streams {
            let references: [(String, MediaType, String?)] = [
                ("AUDIO", .audio, stream.audio), ("VIDEO", .video, stream.video),
                ("SUBTITLES", .subtitles, stream.subtitles),
            ]
            for case (let attribute, let type, let group?) in references
            where names[GroupKey(type: type.rawValue, id: group)] == nil {
                problems.append(
                    (
                        line, .protocolViolation,
                        "#\(tag.name): \(attribute)=\"\(group)\" names no EXT-X-MEDIA:TYPE=\(type) group "
                            + "(RFC 8216bis 4.4.6.2.1)"
                    ))
            }
        }
        for problem in problems.sorted(by: { $0.line < $1.line }) {
            try issue(problem.kind, problem.message, line: problem.line)
        }
    }
}
