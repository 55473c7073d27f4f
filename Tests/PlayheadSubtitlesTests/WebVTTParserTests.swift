import Foundation
import PlayheadSubtitles
import Testing

@Suite("WebVTT parser")
struct WebVTTParserTests {
    static let sample = """
        WEBVTT - a header
        X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000

        REGION
        id:left width:40% lines:2
        regionanchor:0%,100% viewportanchor:10%,90% scroll:up

        STYLE
        ::cue { color: yellow }

        NOTE a comment
        over two lines

        intro
        00:01.000 --> 00:00:04.500 region:left line:0 align:start
        <v.loud Roger Bingham>We are in New York City</v>

        00:05.000 --> 00:06.000 vertical:rl line:50%,center position:20%,line-right size:60%
        Second

        STYLE
        ::cue { color: red }
        """

    @Test("header, regions, style sheets, notes and cues")
    func wholeFile() throws {
        let document = try WebVTTParser.parse(Self.sample)
        #expect(document.format == .webVTT)
        #expect(document.headerLines == ["X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000"])
        #expect(document.timestampMap == WebVTTTimestampMap(mpegts: 900_000, local: 0))
        #expect(document.regions.count == 1)
        let region = try #require(document.regions.first)
        #expect(region.id == "left" && region.width == 40 && region.lines == 2 && region.lineCount == 2)
        #expect(region.viewportAnchorX == 10 && region.viewportAnchorY == 90 && region.scroll == .up)
        #expect(region.sourceLine == 4)
        #expect(document.styleSheets == ["::cue { color: yellow }"])
        #expect(document.notes == ["NOTE a comment\nover two lines"])
        #expect(document.cues.count == 2)
        let first = document.cues[0]
        #expect(first.id == "intro" && first.startTime == 1 && first.endTime == 4.5 && first.sourceLine == 15)
        #expect(first.settings.region == region)
        #expect(first.settings.line == 0 && first.settings.snapToLines && first.settings.align == .start)
        let second = document.cues[1].settings
        #expect(second.vertical == .verticalGrowingLeft)
        #expect(second.line == 50 && !second.snapToLines && second.lineAlign == .center)
        #expect(second.position == 20 && second.positionAlign == .lineRight && second.size == 60)
        // The STYLE block after the first cue is ignored, with a warning on its line.
        #expect(
            document.warnings.contains(
                SubtitleDiagnostic(line: 21, message: "STYLE block after the first cue is ignored")))
    }

    @Test("bytes, Data and strings give the same document")
    func inputs() throws {
        let fromString = try WebVTTParser.parse(Self.sample)
        #expect(try WebVTTParser.parse(Data(Self.sample.utf8)) == fromString)
        #expect(try WebVTTParser.parse(Array(Self.sample.utf8)) == fromString)
    }

    @Test("a missing signature is an error on line 1")
    func signature() {
        #expect(throws: SubtitleParseError(line: 1, message: "missing the WEBVTT signature at the start of the file")) {
            try WebVTTParser.parse("WEBVTTX\n\n00:00.000 --> 00:01.000\nx")
        }
        #expect(throws: SubtitleParseError.self) { try WebVTTParser.parse("") }
        #expect((try? WebVTTParser.parse("WEBVTT"))?.cues == [])
    }

    @Test("invalid timings drop the cue with a warning on its line")
    func invalidTimings() throws {
        let document = try WebVTTParser.parse(
            "WEBVTT\n\nid\n00:00.000 --> 00:00:01\ntext\n\n00:02.000 --> 00:03.000\nok")
        #expect(document.cues.map(\.text) == ["ok"])
        #expect(
            document.warnings == [SubtitleDiagnostic(line: 4, message: "cue timings are invalid; the cue is dropped")])
    }

    @Test("a line with --> inside cue text starts a new cue")
    func arrowInText() throws {
        let document = try WebVTTParser.parse("WEBVTT\n\n00:00.000 --> 00:01.000\none\n00:01.000 --> 00:02.000\ntwo")
        #expect(document.cues.map(\.text) == ["one", "two"])
        #expect(document.cues.map(\.sourceLine) == [3, 5])
    }

    /// stylesheets.vtt has no assertions in the corpus (a browser cannot observe style sheets from script), so
    /// what the algorithm gives is checked here: the first STYLE block runs to the blank line, `-- >` and `NOTE`
    /// inside it included; the STYLE block after the first cue is not a style sheet.
    @Test("STYLE blocks of the W3C stylesheets.vtt")
    func corpusStyleSheets() throws {
        let url = try #require(Corpus.webVTTTests("wpt-file-parsing")?.appendingPathComponent("stylesheets.vtt"))
        let document = try WebVTTParser.parse(Data(contentsOf: url))
        #expect(document.cues.map(\.id) == ["foo", "bar"])
        #expect(document.styleSheets.count == 1)
        #expect(document.styleSheets.first?.hasPrefix("::cue(#foo) {") == true)
        #expect(document.styleSheets.first?.hasSuffix(".foo {\n    width: 19px;\n}") == true)
        #expect(document.styleSheets.first?.contains("00:00:00.000 -- > 00:00:01.000") == true)
        #expect(document.warnings.map(\.line) == [14, 22])
    }

    @Test("REGION after the first cue is ignored; NOTE followed by timings is a cue with the id NOTE")
    func blockPlacement() throws {
        let document = try WebVTTParser.parse(
            "WEBVTT\n\n00:00.000 --> 00:01.000\na\n\nREGION\nid:late\n\nNOTE\n00:01.000 --> 00:02.000 region:late\nb")
        #expect(document.regions.isEmpty)
        #expect(document.cues.map(\.id) == ["", "NOTE"])
        #expect(document.cues[1].settings.region == nil)
        #expect(document.warnings.map(\.line) == [6])
    }

    @Test("X-TIMESTAMP-MAP in either order, and invalid ones")
    func timestampMap() throws {
        let map = try #require(WebVTTTimestampMap(headerLine: "X-TIMESTAMP-MAP=LOCAL:00:00:10.000,MPEGTS:1800000"))
        #expect(map.mpegts == 1_800_000 && map.local == 10)
        #expect(map.offset == 10)
        #expect(map.mediaTime(forCueTime: 12.5) == 22.5)
        #expect(WebVTTTimestampMap(headerLine: "X-TIMESTAMP-MAP=MPEGTS:90000")?.local == 0)
        #expect(WebVTTTimestampMap(headerLine: "X-TIMESTAMP-MAP=LOCAL:00:00:00.000") == nil)
        #expect(WebVTTTimestampMap(headerLine: "X-TIMESTAMP-MAP=MPEGTS:-1,LOCAL:00:00:00.000") == nil)
        #expect(WebVTTTimestampMap(headerLine: "X-TIMESTAMP-MAP=MPEGTS:1,LOCAL:0:0.0") == nil)
        let document = try WebVTTParser.parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:x\n\n00:00.000 --> 00:01.000\nx")
        #expect(document.timestampMap == nil)
        #expect(document.warnings == [SubtitleDiagnostic(line: 2, message: "X-TIMESTAMP-MAP header is invalid")])
    }

    @Test("settings apart from a file read as a timing line's are; invalid ones change nothing")
    func settingsApart() throws {
        let document = try WebVTTParser.parse(Self.sample)
        let apart = CueSettings(
            webVTTSettings: "vertical:rl line:50%,center position:20%,line-right size:60%", regions: document.regions)
        #expect(apart == document.cues[1].settings)
        let withRegion = CueSettings(webVTTSettings: "region:left line:0 align:start", regions: document.regions)
        #expect(withRegion == document.cues[0].settings)
        #expect(CueSettings(webVTTSettings: "region:left").region == nil, "a region not given is none")
        let bad = CueSettings(webVTTSettings: "line:x position:200% align:middle size: nonsense")
        #expect(bad == CueSettings())
    }
}

@Suite("WebVTT cue text")
struct WebVTTCueTextTests {
    @Test("voice, language, classes, ruby and timestamps")
    func tree() {
        let text = WebVTTCueTextParser.parse(
            "<v.first.loud  Esme  Weatherwax >Hi</v> <lang en-GB>colour</lang><ruby>漢<rt>kan</rt></ruby><00:01.500>!")
        #expect(
            text.nodes == [
                .span(
                    CueSpan(kind: .voice(name: "Esme Weatherwax"), classes: ["first", "loud"], children: [.text("Hi")])),
                .text(" "),
                .span(CueSpan(kind: .language("en-GB"), children: [.text("colour")])),
                .span(
                    CueSpan(
                        kind: .ruby, children: [.text("漢"), .span(CueSpan(kind: .rubyText, children: [.text("kan")]))])),
                .timestamp(1.5),
                .text("!"),
            ])
        #expect(text.plainText == "Hi colour漢kan!")
    }

    @Test("character references in text and annotations")
    func references() {
        #expect(WebVTTCueTextParser.parse("a &lt;&#x3C;&#60;&amp b&notin; &euro;").plainText == "a <<<& b∉ €")
        #expect(WebVTTCueTextParser.parse("&#0;&#x110000;&#xD800;&#128;").plainText == "\u{FFFD}\u{FFFD}\u{FFFD}€")
        let voice = WebVTTCueTextParser.parse("<v Tom &amp; Jerry &ampx>x")
        #expect(voice.nodes.first == .span(CueSpan(kind: .voice(name: "Tom & Jerry &ampx"), children: [.text("x")])))
    }

    @Test("cue text of a parsed cue is read lazily with the WebVTT rules")
    func fromCue() throws {
        let document = try WebVTTParser.parse("WEBVTT\n\n00:00.000 --> 00:01.000\n<i>a</i>\n<b>b")
        #expect(document.cues[0].text == "<i>a</i>\n<b>b")
        #expect(
            document.cues[0].parsedText.nodes == [
                .span(CueSpan(kind: .italic, children: [.text("a")])), .text("\n"),
                .span(CueSpan(kind: .bold, children: [.text("b")])),
            ])
    }
}
