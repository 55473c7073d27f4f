import Foundation

/// Pictures to check on screen. Safe from any thread.
extension Fixtures {
    /// How a colour-bar clip is encoded.
    public enum BarEncoding: String, Sendable, CaseIterable {
        /// BT.709, limited (video) range: a YUV texture converted on the GPU.
        case bt709Limited = "709-tv"
        /// BT.601, full range: a YUV texture with the JPEG matrix.
        case bt601Full = "601-pc"
        /// BT.709, full range: converted to RGB by swscale first (SDL has no such matrix).
        case bt709Full = "709-pc"
    }

    /// The colours of `colourBars`' four bars, left to right: red, green, blue, white.
    public static let barColours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]

    /// 30 s of SMPTE colour bars (320x240, 25 fps, H.264) with a 440 Hz tone (AAC): a picture and a sound to
    /// follow across layout changes.
    public static func barsWithTone() throws -> URL {
        try make(
            "bars-tone-30s.mp4",
            [
                "-f", "lavfi", "-i", "smptebars=s=320x240:r=25:d=30", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=30:sample_rate=48000", "-c:v", "libx264", "-preset", "veryfast", "-g",
                "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
            ])
    }

    /// 4 s of a 320x240 25 fps H.264 picture of four vertical bars 80 pixels wide (`barColours`), encoded and
    /// tagged as `encoding` says; no sound.
    public static func colourBars(_ encoding: BarEncoding = .bt709Limited) throws -> URL {
        let (matrix, range) =
            switch encoding {
            case .bt709Limited: ("bt709", "tv")
            case .bt601Full: ("bt470bg", "pc")
            case .bt709Full: ("bt709", "pc")
            }
        let sizeMatrix = matrix == "bt709" ? "bt709" : "bt601"
        let bars = ["red", "lime", "blue", "white"].enumerated().map { i, c in
            "color=c=\(c):s=80x240:r=25:d=4 [b\(i)]"
        }
        let graph =
            bars.joined(separator: "; ")
            + "; [b0][b1][b2][b3] hstack=inputs=4, scale=out_color_matrix=\(sizeMatrix):out_range=\(range), "
            + "format=yuv420p [out0]"
        return try make(
            "bars-\(encoding.rawValue).mp4",
            [
                "-f", "lavfi", "-i", graph, "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-g", "25",
                "-colorspace", matrix, "-color_primaries", matrix == "bt709" ? "bt709" : "bt470bg",
                "-color_trc", matrix == "bt709" ? "bt709" : "gamma28", "-color_range", range,
            ])
    }
}

extension Fixtures {
    /// 2 s (1 fps) of a 16400x1640 FFV1 picture (BT.709), red on its left half and blue on its right: wider than
    /// the largest texture a renderer takes (16384 for Mesa's).
    public static func widerThanAnyTexture() throws -> URL {
        try make(
            "wider-than-textures-709.mkv",
            [
                "-f", "lavfi", "-i",
                "color=c=red:s=8200x1640:r=1:d=2 [l]; color=c=blue:s=8200x1640:r=1:d=2 [r]; [l][r] hstack,"
                    + " scale=out_color_matrix=bt709:out_range=tv, format=yuv420p [out0]",
                "-c:v", "ffv1", "-colorspace", "bt709", "-color_range", "tv",
            ])
    }

    /// 4 s of MPEG-TS whose picture changes size half-way: 2 s of red at 320x240, then 2 s of blue at 640x360 (two
    /// streams' bytes one after the other, as a broadcast's resolution change arrives).
    public static func sizeChangingVideo() throws -> URL {
        let url = Paths.fixtures.appendingPathComponent("size-change.ts")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let parts = try [("red", "320x240", 0), ("blue", "640x360", 2)].map { colour, size, start in
            try make(
                "size-change-\(colour).ts",
                [
                    "-f", "lavfi", "-i", "color=c=\(colour):s=\(size):r=25:d=2", "-c:v", "libx264", "-pix_fmt",
                    "yuv420p", "-output_ts_offset", "\(start)", "-f", "mpegts",
                ])
        }
        var bytes = Data()
        for part in parts { bytes.append(try Data(contentsOf: part)) }
        let tmp = Paths.fixtures.appendingPathComponent(".\(UUID().uuidString).ts")
        try bytes.write(to: tmp)
        _ = try? FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: tmp, to: url)
        return url
    }

    /// `colourBars()` (BT.709) whose display matrix asks for a quarter turn counterclockwise (ffprobe: rotation 90),
    /// as a phone's portrait video does: upright (as ffmpeg's own autorotation shows it), the bars are stripes from
    /// top to bottom, white first, red last.
    public static func turnedColourBars() throws -> URL {
        try make("bars-turned.mp4", ["-i", try colourBars().path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    }

    /// 6 s of a grey 640x360 picture (H.264) with a SubRip subtitle track: "Hello world" from 1 to 2.5 s, the same
    /// in italics from 3.5 to 5 s, nothing between.
    public static func subtitledVideo() throws -> URL {
        let srt = Paths.fixtures.appendingPathComponent("hello.srt")
        let cues =
            "1\n00:00:01,000 --> 00:00:02,500\nHello world\n\n2\n00:00:03,500 --> 00:00:05,000\n<i>Hello world</i>\n"
        if !FileManager.default.fileExists(atPath: srt.path) {
            try cues.write(to: srt, atomically: true, encoding: .utf8)
        }
        return try make(
            "subtitled.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-i", srt.path, "-map", "0", "-map", "1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "srt",
            ])
    }

    /// 6 s of a grey 640x360 picture with two SubRip tracks showing from 0.5 to 5.5 s: the first (English) "Hello
    /// world" at the bottom, the second (French) "Bonjour" at the top (`{\an8}`).
    public static func twoSubtitleTracks() throws -> URL {
        let english = Paths.fixtures.appendingPathComponent("two-en.srt")
        let french = Paths.fixtures.appendingPathComponent("two-fr.srt")
        try "1\n00:00:00,500 --> 00:00:05,500\nHello world\n".write(to: english, atomically: true, encoding: .utf8)
        try "1\n00:00:00,500 --> 00:00:05,500\n{\\an8}Bonjour\n".write(to: french, atomically: true, encoding: .utf8)
        return try make(
            "two-subtitle-tracks-copied.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-i", english.path, "-i", french.path,
                "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "copy",
                "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
            ])
    }

    /// 2 s (5 fps) of a red picture one pixel in size (FFV1, 4:4:4).
    public static func onePixelVideo() throws -> URL {
        try make("one-pixel.mkv", ["-f", "lavfi", "-i", "color=c=red:s=1x1:r=5:d=2,format=yuv444p", "-c:v", "ffv1"])
    }

    /// 20 s of a grey 640x360 picture at 10 fps (a keyframe each second) with two sound tracks, English 440 Hz and
    /// French 880 Hz (AAC), and two subtitle tracks with a cue each second (so that one shows soon after any seek or
    /// switch): English "Hello world" at the bottom, French "Bonjour" at the top (`{\an8}`). For the player
    /// controls and their menus.
    public static func controlsVideo() throws -> URL {
        func srt(_ text: String) -> String {
            (0..<20).map {
                "\($0 + 1)\n00:00:\($0 < 10 ? "0" : "")\($0),000 --> 00:00:\($0 < 10 ? "0" : "")\($0),950\n\(text)\n"
            }
            .joined(separator: "\n")
        }
        let english = Paths.fixtures.appendingPathComponent("controls-en.srt")
        let french = Paths.fixtures.appendingPathComponent("controls-fr.srt")
        try srt("Hello world").write(to: english, atomically: true, encoding: .utf8)
        try srt("{\\an8}Bonjour").write(to: french, atomically: true, encoding: .utf8)
        return try make(
            "controls.mkv",
            [
                "-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=10:d=20",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=20:sample_rate=48000",
                "-f", "lavfi", "-i", "sine=frequency=880:duration=20:sample_rate=48000",
                "-i", english.path, "-i", french.path,
                "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-map", "4",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "10", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-ac", "2", "-c:s", "srt",
                "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre",
                "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
            ])
    }

    /// 6 s of a grey 640x360 picture (H.264), no sound, no subtitles, and beside it a WebVTT file whose cues sit
    /// where their settings put them, one each second: 0.5-1.5 s "Left box" in a box from 10 % to 40 % of the
    /// width (`position:10% size:30% align:left`); 2-3 s "Top" on the first line (`line:0`); 3.5-4.5 s "Middle"
    /// centred on half the height (`line:50%,center`); 5-5.9 s "Region" in a region 40 % wide whose bottom-right
    /// corner is at 95 % of the width and 35 % of the height.
    public static func positionedCues() throws -> (video: URL, cues: URL) {
        let vtt = Paths.fixtures.appendingPathComponent("positioned.vtt")
        try """
        WEBVTT

        REGION
        id:corner
        width:40%
        lines:2
        regionanchor:100%,100%
        viewportanchor:95%,35%

        00:00:00.500 --> 00:00:01.500 position:10% size:30% align:left
        Left box

        00:00:02.000 --> 00:00:03.000 line:0
        Top

        00:00:03.500 --> 00:00:04.500 line:50%,center
        Middle

        00:00:05.000 --> 00:00:05.900 region:corner
        Region

        """.write(to: vtt, atomically: true, encoding: .utf8)
        let video = try make(
            "grey-640x360.mp4",
            ["-f", "lavfi", "-i", "color=c=0x404040:s=640x360:r=25:d=6", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        return (video, vtt)
    }
}
