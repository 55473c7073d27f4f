import Foundation

extension Fixtures {
    /// The cues of the `subtitled` fixtures: start, end (seconds) and text as SubRip writes it.
    public static let subtitleCues: [(start: Double, end: Double, text: String)] = [
        (1.0, 2.0, "One"), (2.5, 3.5, "Two\nlines"), (4.0, 5.0, "<i>Three</i>"),
    ]

    /// `subtitleCues` with their times multiplied by `timeScale`.
    public static func subtitleCues(timeScale: Double) -> [(start: Double, end: Double, text: String)] {
        subtitleCues.map { ($0.start * timeScale, $0.end * timeScale, $0.text) }
    }

    /// 6 s of a 440 Hz AAC tone with a subtitle track holding `subtitleCues`, in `container` ("mkv", "mp4") with
    /// the subtitle codec `codec` ("srt", "webvtt", "ass" in Matroska; "mov_text" in MP4). With a `timeScale`, the
    /// tone's length and the cues' times are multiplied by it (`subtitleCues(timeScale:)`).
    public static func subtitled(container: String, codec: String, timeScale: Double = 1) throws -> URL {
        let scaled = timeScale == 1 ? "" : "-x\(timeScale)"
        let srt = Paths.fixtures.appendingPathComponent("cues\(scaled).srt")
        if !FileManager.default.fileExists(atPath: srt.path) {
            let text = subtitleCues(timeScale: timeScale).enumerated().map { i, cue in
                "\(i + 1)\n\(srtTime(cue.start)) --> \(srtTime(cue.end))\n\(cue.text)\n"
            }.joined(separator: "\n")
            let tmp = Paths.fixtures.appendingPathComponent(".\(UUID().uuidString).srt")
            try Data(text.utf8).write(to: tmp)
            _ = try? FileManager.default.removeItem(at: srt)
            try FileManager.default.moveItem(at: tmp, to: srt)
        }
        return try make(
            "subtitled\(scaled)-\(codec).\(container)",
            [
                "-f", "lavfi", "-i", "sine=frequency=440:duration=\(6 * timeScale):sample_rate=48000", "-i", srt.path,
                "-ac", "2", "-c:a", "aac", "-c:s", codec,
            ])
    }

    /// 6 s of a grey 640x360 picture (H.264, as `positionedCues`) with a WebVTT track in Matroska whose cues carry
    /// identifiers and settings: 0.5-1.5 s "Left box" (id "left", `position:10% size:30% align:left`), 2-3 s "Top"
    /// (id "top", `line:0`), 3.5-4.5 s "Middle" (`line:50%,center`), 5-5.9 s "Bottom" (none). The track is copied
    /// from a WebVTT file, so FFmpeg keeps the ids and settings (packet side data; converting the track drops them).
    public static func embeddedPositionedCues() throws -> URL {
        let vtt = Paths.fixtures.appendingPathComponent("positioned-embedded.vtt")
        try """
        WEBVTT

        left
        00:00:00.500 --> 00:00:01.500 position:10% size:30% align:left
        Left box

        top
        00:00:02.000 --> 00:00:03.000 line:0
        Top

        00:00:03.500 --> 00:00:04.500 line:50%,center
        Middle

        00:00:05.000 --> 00:00:05.900
        Bottom

        """.write(to: vtt, atomically: true, encoding: .utf8)
        return try make(
            "positioned-webvtt.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-i", vtt.path, "-map", "0", "-map", "1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy",
            ])
    }

    /// An ASS script for a 640x360 picture (`PlayResX`/`PlayResY` 640x360) whose events need its styles and
    /// override tags: 1-2.5 s "Red at the top" in the style `RedTop` (red, 40 px, alignment 8: top centre) fading
    /// in and out over 0.4 s; 3-4.5 s "Placed" in the white `Default` style at `{\pos(120,120)}` (bottom centre of
    /// the text there).
    public static let styledASS = assScript(
        styles: [
            "Default,sans-serif,28,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1",
            "RedTop,sans-serif,40,&H000000FF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,8,10,10,10,1",
        ],
        events: [
            "0,0:00:01.00,0:00:02.50,RedTop,,0,0,0,,{\\fad(400,400)}Red at the top",
            "0,0:00:03.00,0:00:04.50,Default,,0,0,0,,{\\pos(120,120)}Placed",
        ])

    /// An ASS script for a 640x360 picture (`PlayResX`/`PlayResY`) with `styles` (each a `Style:` line's values)
    /// and `events` (each a `Dialogue:` line's).
    public static func assScript(styles: [String], events: [String]) -> String {
        """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, \
        MarginR, MarginV, Encoding

        """ + styles.map { "Style: \($0)\n" }.joined()
            + "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + events.map { "Dialogue: \($0)\n" }.joined()
    }

    /// `styledASS` as a file, and 6 s of a grey 640x360 picture (H.264) with it as an ASS track in Matroska.
    public static func styledSubtitles() throws -> (video: URL, script: URL) {
        let ass = Paths.fixtures.appendingPathComponent("styled.ass")
        try styledASS.write(to: ass, atomically: true, encoding: .utf8)
        let video = try make(
            "styled-ass.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-i", ass.path, "-map", "0", "-map", "1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy",
            ])
        return (video, ass)
    }

    /// 6 s of a grey 640x360 picture (H.264) with an ASS track in Matroska whose one event (1-5 s) moves white
    /// text from (100, 200) to (540, 200) (`\move`, the text's bottom centre, in the script's 640x360): at 2 s its
    /// centre is at x 210, at 4 s at x 430.
    public static func movingSubtitles() throws -> URL {
        let ass = Paths.fixtures.appendingPathComponent("moving.ass")
        try assScript(
            styles: [
                "Default,sans-serif,32,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1"
            ],
            events: ["0,0:00:01.00,0:00:05.00,Default,,0,0,0,,{\\move(100,200,540,200)}Moving"]
        ).write(to: ass, atomically: true, encoding: .utf8)
        return try make(
            "moving-ass.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-i", ass.path, "-map", "0", "-map", "1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy",
            ])
    }

    /// 6 s of a grey 640x360 picture (H.264) with an ASS track (0-6 s: "Serif Ag" in the style `Serif`, 60 px,
    /// its font named "DejaVu Serif"), in Matroska; with `attachingFont`, the font file (the system's
    /// DejaVuSerif.ttf, from fonts-dejavu-core) attached as Matroska files carry fonts for their subtitles.
    public static func attachedFontSubtitles(attachingFont: Bool) throws -> URL {
        let ass = Paths.fixtures.appendingPathComponent("serif.ass")
        try """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, \
        MarginR, MarginV, Encoding
        Style: Serif,DejaVu Serif,60,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,5,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.00,0:00:06.00,Serif,,0,0,0,,Serif Ag

        """.write(to: ass, atomically: true, encoding: .utf8)
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        let attach = attachingFont ? ["-attach", font, "-metadata:s:t", "mimetype=application/x-truetype-font"] : []
        return try make(
            attachingFont ? "serif-attached.mkv" : "serif-not-attached.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-i", ass.path,
            ] + attach + ["-map", "0", "-map", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy"])
    }

    private static func srtTime(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    /// 6 s of sound in two languages with subtitles in two languages, in Matroska: English 440 Hz and French
    /// 880 Hz AAC tracks (in that order), then English ("Hello") and French ("Bonjour") SubRip tracks, each with
    /// one cue from 1 s to 5 s.
    public static func bilingual() throws -> URL {
        var srts: [String] = []
        for (language, text) in [("en", "Hello"), ("fr", "Bonjour")] {
            let srt = Paths.fixtures.appendingPathComponent("cue-\(language).srt")
            if !FileManager.default.fileExists(atPath: srt.path) {
                let tmp = Paths.fixtures.appendingPathComponent(".\(UUID().uuidString).srt")
                try Data("1\n00:00:01,000 --> 00:00:05,000\n\(text)\n".utf8).write(to: tmp)
                _ = try? FileManager.default.removeItem(at: srt)
                try FileManager.default.moveItem(at: tmp, to: srt)
            }
            srts.append(srt.path)
        }
        return try make(
            "bilingual.mkv",
            [
                "-f", "lavfi", "-i", "sine=frequency=440:duration=6:sample_rate=48000",
                "-f", "lavfi", "-i", "sine=frequency=880:duration=6:sample_rate=48000",
                "-i", srts[0], "-i", srts[1], "-map", "0", "-map", "1", "-map", "2", "-map", "3",
                "-ac", "2", "-c:a", "aac", "-c:s", "srt",
                "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre",
                "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
            ])
    }
}
