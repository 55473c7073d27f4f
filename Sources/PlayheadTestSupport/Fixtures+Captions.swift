import Foundation

extension Fixtures {
    /// The CEA-608 pop-on captions (CC1) of `captionedVideo`: the first shows from 1 s and is erased at 3 s, the
    /// second shows from 4.5 s until the third replaces it at 6.5 s, the third is erased at 8.5 s. Each is loaded
    /// in the half second before it shows, after the keyframe before it (keyframes are 2 s apart): a seek into
    /// one decodes all it needs.
    public static let captions = [
        CEA608Writer.Caption("HELLO CAPTIONS", start: 1, end: 3),
        CEA608Writer.Caption("SECOND CAPTION", start: 4.5, end: 6.5),
        CEA608Writer.Caption("THIRD CAPTION", start: 6.5, end: 8.5),
    ]

    /// 10 s of 320x240 25 fps H.264 (no B-frames, a keyframe every 2 s) carrying `captions` as CEA-608 in SEI
    /// (ATSC A/53), with a 440 Hz AAC track, in the container `ext` ("mp4" or "ts"). Made once.
    public static func captionedVideo(ext: String = "mp4") throws -> URL {
        let url = Paths.fixtures.appendingPathComponent("captioned.\(ext)")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let elementary = try captionedStream()
        return try make(
            "captioned.\(ext)",
            [
                "-framerate", "25", "-f", "h264", "-i", elementary.path,
                "-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=48000",
                "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-ac", "2", "-shortest",
            ])
    }

    /// The roll-up captions (CC1, two rows) of `rollUpCaptionedVideo`: each line is whole at its start; the screen
    /// is erased at 6 s.
    public static let rollUpCaptions = [
        CEA608Writer.Caption("FIRST LINE", start: 1, end: 6),
        CEA608Writer.Caption("NEXT ONE", start: 3, end: 6),
    ]

    /// `captionedVideo`'s pictures and sound in MP4 with `rollUpCaptions` in place of its pop-on captions. Made
    /// once.
    public static func rollUpCaptionedVideo() throws -> URL {
        let url = Paths.fixtures.appendingPathComponent("captioned-rollup.mp4")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let elementary = try captionedStream(name: "captioned-rollup.h264") {
            CEA608Writer.insert(rollUp: rollUpCaptions, into: $0, fps: 25)
        }
        return try make(
            "captioned-rollup.mp4",
            [
                "-framerate", "25", "-f", "h264", "-i", elementary.path,
                "-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=48000",
                "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-ac", "2", "-shortest",
            ])
    }

    /// The H.264 elementary stream (Annex B) of `captionedVideo` (`name`), its captions written in by `write`
    /// (by default `captions`). Made once.
    static func captionedStream(
        name: String = "captioned.h264",
        write: ([UInt8]) -> [UInt8] = { CEA608Writer.insert(captions, into: $0, fps: 25) }
    ) throws -> URL {
        let url = Paths.fixtures.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let plain = try make(
            "uncaptioned.h264",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=10",
                "-c:v", "libx264", "-preset", "ultrafast", "-profile:v", "baseline", "-bf", "0", "-g", "50",
                "-keyint_min", "50", "-sc_threshold", "0", "-x264-params", "aud=1", "-pix_fmt", "yuv420p",
                "-bsf:v", "h264_mp4toannexb", "-f", "h264",
            ])
        let bytes = [UInt8](try Data(contentsOf: plain))
        let captioned = write(bytes)
        let tmp = Paths.fixtures.appendingPathComponent(".\(UUID().uuidString).h264")
        try Data(captioned).write(to: tmp)
        _ = try? FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: tmp, to: url)
        return url
    }
}

extension HLSFixtures {
    /// Makes (once) an HLS VOD stream of `Fixtures.captionedVideo` in `captions/`: one MPEG-TS variant (`v0`, 2 s
    /// segments, cut with `-c copy`) whose captions `master.m3u8` declares as the `CLOSED-CAPTIONS` group `cc`
    /// (`NAME="English CC"`, `LANGUAGE="en"`, `INSTREAM-ID="CC1"`, `DEFAULT=YES`, `AUTOSELECT=YES`);
    /// `master-none.m3u8` says `CLOSED-CAPTIONS=NONE` and `master-unsaid.m3u8` says nothing of them. Returns
    /// `master.m3u8`'s path on the server.
    public static func captionedStream() throws -> String {
        let dir = try root().appendingPathComponent("captions")
        let out = dir.appendingPathComponent("v0")
        if !FileManager.default.fileExists(atPath: out.appendingPathComponent("index.m3u8").path) {
            let source = try Fixtures.captionedVideo(ext: "ts")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let r = try Run.command(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-y", "-i", source.path, "-c", "copy", "-f", "hls", "-hls_time", "2",
                    "-hls_playlist_type", "vod", "-hls_segment_filename",
                    out.appendingPathComponent("seg%02d.ts").path, out.appendingPathComponent("index.m3u8").path,
                ], timeout: 300)
            guard r.status == 0 else { throw TestSupportError("ffmpeg failed making \(out.path): \(r.stderr)") }
        }
        let variant = "#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x240,CODECS=\"avc1.42c00d,mp4a.40.2\""
        let playlists = [
            "master.m3u8": [
                "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English CC\",LANGUAGE=\"en\","
                    + "INSTREAM-ID=\"CC1\",DEFAULT=YES,AUTOSELECT=YES",
                variant + ",CLOSED-CAPTIONS=\"cc\"",
            ],
            "master-none.m3u8": [variant + ",CLOSED-CAPTIONS=NONE"],
            "master-unsaid.m3u8": [variant],
        ]
        for (name, lines) in playlists {
            let text = (["#EXTM3U", "#EXT-X-VERSION:4"] + lines + ["v0/index.m3u8", ""]).joined(separator: "\n")
            let url = dir.appendingPathComponent(name)
            if (try? String(contentsOf: url, encoding: .utf8)) != text {
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        return "captions/master.m3u8"
    }
}
