import Foundation
import PlayheadSubtitles
import Testing

@Suite("SubRip parser")
struct SRTParserTests {
    @Test("a well-formed file")
    func wellFormed() {
        let document = SRTParser.parse(
            """
            1
            00:00:01,000 --> 00:00:02,500
            Hello
            world

            2
            00:01:02,003 --> 01:00:00,000
            <i>Bye</i>

            """)
        #expect(document.format == .subRip)
        #expect(document.cues.count == 2)
        #expect(document.cues[0].id == "1")
        #expect(document.cues[0].startTime == 1 && document.cues[0].endTime == 2.5)
        #expect(document.cues[0].text == "Hello\nworld")
        #expect(document.cues[0].sourceLine == 2)
        #expect(document.cues[1].id == "2")
        #expect(document.cues[1].startTime == 62.003)
        #expect(document.cues[1].endTime == 3600)
        #expect(document.cues[1].markup == .subRip)
        #expect(document.cues[1].parsedText.nodes == [.span(CueSpan(kind: .italic, children: [.text("Bye")]))])
        #expect(document.warnings.isEmpty)
    }

    @Test("BOM, CRLF, dot milliseconds, missing index, extra and missing blank lines")
    func realWorldVariants() {
        let text =
            "\u{FEFF}\r\n\r\n00:00:01.5 --> 00:00:02.25\r\nfirst\r\n\r\n\r\n\r\n"
            + "2\r\n00:00:03,000 --> 00:00:04,000\r\nsecond\r\n3\r\n00:00:05,000 --> 00:00:06,000\r\nthird"
        let document = SRTParser.parse(Array(text.utf8))
        #expect(document.cues.map(\.text) == ["first", "second", "third"])
        #expect(document.cues.map(\.id) == ["", "2", "3"])
        #expect(document.cues[0].startTime == 1.5)
        #expect(document.cues[0].endTime == 2.25)
        #expect(document.cues.map(\.sourceLine) == [3, 9, 12])
    }

    @Test("CR-only line ends and hours omitted")
    func carriageReturns() {
        let document = SRTParser.parse("1\r01:02,000 --> 01:03,000\rtext\r")
        #expect(document.cues.count == 1)
        #expect(document.cues[0].startTime == 62)
        #expect(document.cues[0].text == "text")
    }

    @Test("a file that is not UTF-8 is read as Windows-1252")
    func windows1252() {
        // "Café – “quoted”" in Windows-1252: é = E9, en dash = 96, curly quotes = 93 and 94.
        let bytes: [UInt8] =
            Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf".utf8) + [0xE9, 0x20, 0x96, 0x20, 0x93]
            + Array("quoted".utf8) + [0x94]
        let document = SRTParser.parse(bytes)
        #expect(document.cues.first?.text == "Café – “quoted”")
        #expect(document.warnings == [SubtitleDiagnostic(line: 1, message: "not UTF-8; read as Windows-1252")])
        #expect(SRTParser.parse(Array("00:00:01,000 --> 00:00:02,000\nCafé".utf8)).warnings.isEmpty)
    }

    @Test("X1/X2/Y1/Y2 boxes after the timings")
    func displayBox() {
        let document = SRTParser.parse("1\n00:00:01,000 --> 00:00:02,000  X1:100 X2:600 Y1:050 Y2:090\nboxed\n")
        #expect(document.cues.first?.displayBox == CueDisplayBox(x1: 100, x2: 600, y1: 50, y2: 90))
        #expect(document.cues.first?.text == "boxed")
    }

    @Test("invalid timing lines are not cues, and stray text is reported with its line")
    func invalidTimings() {
        let document = SRTParser.parse(
            "junk\n\n1\n00:00:01,000 -> 00:00:02,000\nnot a cue\n\n2\n00:00:03,000 --> 00:00:04,000\nok\n")
        #expect(document.cues.count == 1)
        #expect(document.cues[0].text == "ok")
        #expect(document.warnings.first?.line == 1)
        let backwards = SRTParser.parse("00:00:05,000 --> 00:00:04,000\nx\n")
        #expect(backwards.warnings == [SubtitleDiagnostic(line: 1, message: "cue ends before it starts")])
        #expect(SRTParser.parse("00:00:61,000 --> 00:00:62,000\nx").cues.isEmpty)
        #expect(SRTParser.parse("").cues.isEmpty)
    }

    @Test("tags: i, b, u and font with attributes, case-insensitive, in any nesting")
    func tags() {
        let text = SRTCueTextParser.parse("<B>bold <font color=\"#ff0000\" size=3>red</FONT></b> <u>u</u> <3 <x>")
        #expect(
            text.nodes == [
                .span(
                    CueSpan(
                        kind: .bold,
                        children: [
                            .text("bold "),
                            .span(
                                CueSpan(kind: .font(color: "#ff0000", face: nil, size: "3"), children: [.text("red")])),
                        ])),
                .text(" "),
                .span(CueSpan(kind: .underline, children: [.text("u")])),
                .text(" <3 <x>"),
            ])
        #expect(text.plainText == "bold red u <3 <x>")
        // An end tag closes the elements opened inside the one it names; an unmatched one is dropped.
        let crossed = SRTCueTextParser.parse("<i>a<b>b</i>c</b>")
        #expect(
            crossed.nodes == [
                .span(
                    CueSpan(kind: .italic, children: [.text("a"), .span(CueSpan(kind: .bold, children: [.text("b")]))])),
                .text("c"),
            ])
    }

    @Test("{\\anN} overrides position the cue and leave the text")
    func alignmentOverrides() {
        let top = SRTParser.parse("1\n00:00:01,000 --> 00:00:02,000\n{\\an8}On top\n").cues[0]
        #expect(top.settings.line == 0)
        #expect(top.settings.snapToLines)
        #expect(top.settings.align == .center)
        #expect(top.parsedText.plainText == "On top")
        let middleLeft = SRTParser.parse("1\n00:00:01,000 --> 00:00:02,000\n{\\an4}left\n").cues[0]
        #expect(middleLeft.settings.line == 50 && !middleLeft.settings.snapToLines)
        #expect(middleLeft.settings.align == .left)
        let bottomRight = SRTParser.parse("1\n00:00:01,000 --> 00:00:02,000\n{\\an3}right\n").cues[0]
        #expect(bottomRight.settings.line == nil && bottomRight.settings.align == .right)
        let plain = SRTParser.parse("1\n00:00:01,000 --> 00:00:02,000\nplain\n").cues[0]
        #expect(plain.settings == CueSettings())
    }
}
