import Foundation
import Testing

@testable import PlayheadHLS

/// Conformance against the 60 playlists of videojs/m3u8-parser (`../shared/corpora/hls/videojs-m3u8-parser`).
///
/// Every playlist must parse (lenient mode, like the upstream parser), and every field both models share must be
/// equal. The comparison projects our model onto videojs's JSON shape (`VideojsProjection`) and compares the whole
/// document, after removing the fields that are not part of our model:
///
/// - `dateTimeString` (playlist and segment level): videojs keeps the tag's text; we keep the `Date`. It is still
///   compared, as the date it denotes (to the millisecond).
/// - `preloadSegment.map` and `preloadSegment.timeline`: videojs attaches the map and discontinuity sequence in
///   effect to the segment being produced; our model keeps only its parts (`trailingParts`) and preload hints,
///   because the map and timeline of a segment are only known once its `EXTINF` and URI arrive.
///
/// `allowCache` (from the removed `EXT-X-ALLOW-CACHE` tag, which we keep as an unknown tag),
/// `discontinuityStarts` and `timeline` are derived from our model and compared. Where videojs disagrees with
/// RFC 8216bis, the expectation is listed in ``knownDifferences`` with the field path and the reason; those paths
/// are checked to hold *our* (RFC) value instead, so nothing is silently skipped.
@Suite("videojs m3u8-parser conformance")
struct VideojsConformanceTests {
    static let folder = "hls/videojs-m3u8-parser"

    /// Field paths where videojs's expectation contradicts RFC 8216bis, with the value we produce.
    static let knownDifferences: [String: [String: (ours: JSONValue, reason: String)]] = [
        "zeroDuration": [
            "segments[0].duration": (
                .number(0), "videojs replaces EXTINF:0 with 0.01; RFC 8216bis allows a zero duration"
            )
        ],
        "extinf": [
            "segments[1].title": (
                .null,
                "for `#EXTINF:;asljasdfii11)))00,` videojs makes the whole value the title; per the RFC the text "
                    + "before the first comma is the (invalid) duration and the title is what follows it (empty)"
            )
        ],
        "multipleTargetDurations": [
            "segments[0].duration": (
                .number(0),
                "a URI with no EXTINF before any EXT-X-TARGETDURATION has no known duration: videojs leaves it "
                    + "undefined, our lenient parse uses 0 (and warns)"
            )
        ],
        "llhls-delta-byte-range": [
            "preloadSegment.parts[0].byterange.offset": (
                .number(8_118_592),
                "an EXT-X-PART BYTERANGE without offset continues after the previous part of the same resource "
                    + "(RFC 8216bis 4.4.4.9: 22444@8096148 ends at 8118592); videojs restarts at 0 for a new segment"
            ),
            "preloadSegment.preloadHints[0].byterange.offset": (
                .number(0),
                "EXT-X-PRELOAD-HINT without BYTERANGE-START starts at 0 (RFC 8216bis 4.4.5.3); videojs continues "
                    + "after the preceding part"
            ),
        ],
    ]

    static var fixtures: [String] {
        Corpus.files(in: folder + "/test/fixtures/integration", withExtension: "m3u8").map {
            $0.deletingPathExtension().lastPathComponent
        }
    }

    @Test("the corpus has its 60 playlists")
    func corpusIsComplete() {
        #expect(Self.fixtures.count == 60)
    }

    @Test("every playlist parses and every shared field matches", arguments: fixtures)
    func conformance(name: String) throws {
        let root = try #require(Corpus.folder(Self.folder))
        let playlistURL = root.appendingPathComponent("test/fixtures/integration/\(name).m3u8")
        let expectedURL = root.appendingPathComponent("expected-json/\(name).json")
        let playlist = try PlaylistParser().parseFile(playlistURL)
        var expected = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: expectedURL))
        var ours = VideojsProjection.project(playlist)

        let differences = Self.knownDifferences[name] ?? [:]
        for (path, difference) in differences {
            #expect(value(at: path, in: ours) == difference.ours, "\(name) \(path): \(difference.reason)")
            remove(path, from: &expected)
            remove(path, from: &ours)
        }
        remove("preloadSegment.map", from: &expected)
        remove("preloadSegment.timeline", from: &expected)
        var mismatches: [String] = []
        compare(expected, ours, path: "", mismatches: &mismatches)
        #expect(mismatches.isEmpty, "\(name): \(mismatches.joined(separator: "\n"))")
    }

    // MARK: Comparison

    private func compare(_ expected: JSONValue, _ ours: JSONValue, path: String, mismatches: inout [String]) {
        switch (expected, ours) {
        case (.object(let a), .object(let b)):
            for key in Set(a.keys).union(b.keys).sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                guard let left = a[key] else {
                    mismatches.append("\(child): not in videojs output, ours \(b[key]!)")
                    continue
                }
                guard let right = b[key] else {
                    mismatches.append("\(child): missing, videojs \(left)")
                    continue
                }
                if key == "dateTimeString" || key == "dateTimeObject" {
                    if case .string(let x) = left, case .string(let y) = right, ISO8601.parse(x) == ISO8601.parse(y) {
                        continue
                    }
                }
                compare(left, right, path: child, mismatches: &mismatches)
            }
        case (.array(let a), .array(let b)):
            if a.count != b.count { mismatches.append("\(path): \(a.count) elements, ours \(b.count)") }
            for index in 0..<min(a.count, b.count) {
                compare(a[index], b[index], path: "\(path)[\(index)]", mismatches: &mismatches)
            }
        case (.number(let x), .number(let y)):
            if abs(x - y) > max(1e-6, abs(x) * 1e-12) { mismatches.append("\(path): \(x), ours \(y)") }
        case (.string(let text), .number(let y)) where path.hasSuffix("AVERAGE-BANDWIDTH"):
            // videojs leaves AVERAGE-BANDWIDTH of EXT-X-STREAM-INF as text; compare the number it denotes.
            if Double(text) != y { mismatches.append("\(path): \(text), ours \(y)") }
        default:
            if expected != ours { mismatches.append("\(path): \(expected), ours \(ours)") }
        }
    }

    private func components(_ path: String) -> [(String, Int?)] {
        path.split(separator: ".").map { part in
            if let open = part.firstIndex(of: "[") {
                let index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)])
                return (String(part[..<open]), index)
            }
            return (String(part), nil)
        }
    }

    private func value(at path: String, in root: JSONValue) -> JSONValue {
        var current = root
        for (key, index) in components(path) {
            guard case .object(let object) = current, let next = object[key] else { return .null }
            current = next
            if let index {
                guard case .array(let array) = current, index < array.count else { return .null }
                current = array[index]
            }
        }
        return current
    }

    private func remove(_ path: String, from root: inout JSONValue) {
        func go(_ value: inout JSONValue, _ parts: ArraySlice<(String, Int?)>) {
            guard let (key, index) = parts.first, case .object(var object) = value else { return }
            if parts.count == 1 && index == nil {
                object[key] = nil
            } else if var child = object[key] {
                if let index {
                    guard case .array(var array) = child, index < array.count else { return }
                    if parts.count == 1 { return }
                    go(&array[index], parts.dropFirst())
                    child = .array(array)
                } else {
                    go(&child, parts.dropFirst())
                }
                object[key] = child
            }
            value = .object(object)
        }
        go(&root, components(path)[...])
    }
}
