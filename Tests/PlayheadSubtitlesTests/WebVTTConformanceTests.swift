import Foundation
import PlayheadSubtitles
import Testing

/// The W3C WebVTT file-parsing tests (web-platform-tests, as packaged by w3c/webvtt.js): each `.vtt` file is parsed
/// and every assertion of its `expected-json-file-parsing/*.json` must hold. Paths such as `cues[3].align` or
/// `cues[0].region.lines` name `VTTCue`/`VTTRegion` attributes; `JSPath` maps them onto `SubtitleCue`.
@Suite("W3C WebVTT file parsing")
struct WebVTTConformanceTests {
    static let expectations = Corpus.files(
        in: Corpus.webVTTTests("expected-json-file-parsing"), withExtension: "json")

    @Test("the corpus is there")
    func corpusIsPresent() {
        #expect(Corpus.root != nil, "shared/corpora not found above \(#filePath)")
        #expect(Self.expectations.count == 37)
    }

    @Test("every assertion holds", arguments: expectations)
    func assertionsHold(_ name: String) throws {
        let folder = try #require(Corpus.webVTTTests("expected-json-file-parsing"))
        let expectation = try JSONDecoder().decode(
            Expectation.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
        let vtt = try Data(
            contentsOf: try #require(
                Corpus.webVTTTests("wpt-file-parsing")?.appendingPathComponent(
                    expectation.vtt)))
        // A file whose signature is invalid yields no cues at all (the browser fires an error event).
        let cues = (try? WebVTTParser.parse(vtt))?.cues ?? []
        var pathless = 0
        for assertion in expectation.assertions {
            guard let path = assertion.path else {
                // Two `assert_true(!!region)` checks in settings-region.js have no symbolic path; they are
                // checked in `regionsAreSharedObjects` below.
                #expect(assertion.op == "truthy" && name == "settings-region.json")
                pathless += 1
                continue
            }
            let actual = try JSPath(path).evaluate(cues)
            switch assertion.op {
            case "equals":
                #expect(actual == assertion.expected, "\(name): \(path)")
            case "equals_same_object_as", "not_equals_same_object_as":
                let other = try JSPath(try #require(assertion.other)).evaluate(cues)
                #expect((actual == other) == (assertion.op == "equals_same_object_as"), "\(name): \(path)")
            default:
                Issue.record("\(name): unknown op \(assertion.op)")
            }
        }
        #expect(pathless == (name == "settings-region.json" ? 2 : 0))
    }

    @Test("regions named by cues resolve to region blocks (settings-region.js's !!region checks)")
    func regionsAreSharedObjects() throws {
        let url = try #require(Corpus.webVTTTests("wpt-file-parsing")?.appendingPathComponent("settings-region.vtt"))
        let document = try WebVTTParser.parse(Data(contentsOf: url))
        let foo = try #require(document.cues[0].settings.region)
        let bar = try #require(document.cues[1].settings.region)
        #expect(foo.id == "foo" && bar.id == "bar")
        // The later of the two `id:foo` blocks wins.
        #expect(foo == document.regions[2])
    }
}

/// One `expected-json-file-parsing` file.
struct Expectation: Decodable {
    struct Assertion: Decodable {
        var path: String?
        var op: String
        var expected: JSValue?
        var other: String?

        enum CodingKeys: String, CodingKey { case path, op, expected, other }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decodeIfPresent(String.self, forKey: .path)
            op = try container.decode(String.self, forKey: .op)
            other = try container.decodeIfPresent(String.self, forKey: .other)
            // `"expected": null` is a real expectation (JavaScript null), distinct from a missing key.
            expected = container.contains(.expected) ? try container.decode(JSValue.self, forKey: .expected) : nil
        }
    }

    var vtt: String
    var assertions: [Assertion]
}
