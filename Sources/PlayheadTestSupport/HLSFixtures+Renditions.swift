import Foundation

extension HLSFixtures {
    /// An audio rendition of `renditionLadder`: its language, name and tone.
    public struct AudioRendition: Sendable {
        /// `LANGUAGE`.
        public var language: String
        /// `NAME`.
        public var name: String
        /// The tone its sound carries, in Hz.
        public var tone: Int
    }

    /// The audio renditions of `renditionLadder`: English (the `DEFAULT`) and German.
    public static let audioRenditions = [
        AudioRendition(language: "en", name: "English", tone: 440),
        AudioRendition(language: "de", name: "Deutsch", tone: 660),
    ]

    /// A subtitle rendition of `subtitledRenditionLadder`: its language, name, whether it is `FORCED`, and what
    /// its cues say before their second ("de" shows "de 3" from 3.1 s to 3.9 s).
    public struct SubtitleRendition: Sendable {
        /// `LANGUAGE`.
        public var language: String
        /// `NAME`.
        public var name: String
        /// `FORCED=YES`.
        public var forced: Bool
        /// The text of each cue before its second.
        public var label: String
    }

    /// The subtitle renditions of `subtitledRenditionLadder`: English (the `DEFAULT`), German, and English forced.
    public static let subtitleRenditions = [
        SubtitleRendition(language: "en", name: "English", forced: false, label: "en"),
        SubtitleRendition(language: "de", name: "Deutsch", forced: false, label: "de"),
        SubtitleRendition(language: "en", name: "English (forced)", forced: true, label: "forced"),
    ]

    /// `renditionLadder` (in `subtitled-renditions/`) with the subtitle group `subs` of `subtitleRenditions`:
    /// WebVTT in 2 s segments, one cue per second (second `n`: "LABEL n" from `n`+0.1 to `n`+0.9 s), each segment
    /// with an `X-TIMESTAMP-MAP` that puts cue time 10 s at the video's first time stamp (so the cues are written
    /// 10 s late and only the map puts them right). The variants' `CODECS` name `wvtt` too.
    public static func subtitledRenditionLadder(seconds: Int = 8) throws -> String {
        try renditionLadder("subtitled-renditions", seconds: seconds, subtitles: subtitleRenditions)
    }

    /// Makes (once) a ladder whose variants carry no sound, in `name/`: two video-only MPEG-TS variants (`v0`
    /// 360p, `v1` 720p, 2 s segments) naming the audio group `aud`, whose renditions (`a-en`, `a-de`, audio-only
    /// MPEG-TS in 4 s segments, so their boundaries are not the video's) carry the tones of `audioRenditions`;
    /// with `subtitles`, a subtitle group as `subtitledRenditionLadder` says. `audioSegmentSeconds` sets the
    /// renditions' segments (2 for the low-latency origin, which cuts 2 s segments into parts).
    /// Everything is `seconds` long; returns the multivariant playlist's path on the server.
    public static func renditionLadder(
        _ name: String = "renditions", seconds: Int = 8, subtitles: [SubtitleRendition] = [],
        audioSegmentSeconds: Int = 4
    ) throws -> String {
        let dir = try root().appendingPathComponent(name)
        let master = dir.appendingPathComponent("master.m3u8")
        if FileManager.default.fileExists(atPath: master.path) { return "\(name)/master.m3u8" }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for (i, r) in audioRenditions.enumerated() {
            try encode(
                into: dir.appendingPathComponent("a-\(r.language)"), segmentSeconds: audioSegmentSeconds,
                [
                    "-f", "lavfi", "-i", "sine=frequency=\(r.tone):duration=\(seconds):sample_rate=48000",
                    "-c:a", "aac", "-ac", "2", "-b:a", "96k",
                ])
            lines.append(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"\(r.name)\",LANGUAGE=\"\(r.language)\","
                    + "DEFAULT=\(i == 0 ? "YES" : "NO"),AUTOSELECT=YES,CHANNELS=\"2\",URI=\"a-\(r.language)/index.m3u8\""
            )
        }
        for (i, height) in [360, 720].enumerated() {
            let width = height * 16 / 9
            try encodeVideoRung(i, height: height, into: dir, seconds: seconds)
            if i == 0 && !subtitles.isEmpty { lines += try writeSubtitles(subtitles, into: dir, seconds: seconds) }
            let text = subtitles.isEmpty ? "" : ",wvtt"
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\((400 * (i + 1) + 110) * 1000),RESOLUTION=\(width)x\(height),"
                    + "CODECS=\"avc1.64001f,mp4a.40.2\(text)\",AUDIO=\"aud\"\(subtitles.isEmpty ? "" : ",SUBTITLES=\"subs\"")"
            )
            lines.append("v\(i)/index.m3u8")
        }
        try (lines.joined(separator: "\n") + "\n").write(to: master, atomically: true, encoding: .utf8)
        return "\(name)/master.m3u8"
    }

    /// Writes the WebVTT renditions of `subtitles` into `dir` (after the variant `v0`, whose first time stamp the
    /// maps name); returns their `EXT-X-MEDIA` lines.
    private static func writeSubtitles(_ subtitles: [SubtitleRendition], into dir: URL, seconds: Int) throws
        -> [String]
    {
        let probe = try Run.command(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_pts", "-of", "csv=p=0",
                dir.appendingPathComponent("v0/seg00.ts").path,
            ], timeout: 60)
        let digits = probe.stdout.drop { !$0.isNumber }.prefix { $0.isNumber }
        guard let firstPTS = Int(digits) else {
            throw TestSupportError("no start time in v0/seg00.ts: \(probe.stdout) \(probe.stderr)")
        }
        func stamp(_ t: Double) -> String {
            String(format: "00:%02d:%06.3f", Int(t) / 60, t.truncatingRemainder(dividingBy: 60))
        }
        var lines: [String] = []
        for (k, r) in subtitles.enumerated() {
            let folder = "s-\(r.label)-\(r.language)"
            let sub = dir.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            var playlist = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
            for segment in 0..<((seconds + 1) / 2) {
                var vtt = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(firstPTS),LOCAL:00:00:10.000\n\n"
                for n in (segment * 2)..<min(segment * 2 + 2, seconds) {
                    vtt += "\(stamp(10 + Double(n) + 0.1)) --> \(stamp(10 + Double(n) + 0.9))\n\(r.label) \(n)\n\n"
                }
                try vtt.write(to: sub.appendingPathComponent("seg\(segment).vtt"), atomically: true, encoding: .utf8)
                playlist += ["#EXTINF:2.0,", "seg\(segment).vtt"]
            }
            playlist.append("#EXT-X-ENDLIST")
            try (playlist.joined(separator: "\n") + "\n").write(
                to: sub.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
            lines.append(
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"\(r.name)\",LANGUAGE=\"\(r.language)\","
                    + "DEFAULT=\(k == 0 ? "YES" : "NO"),AUTOSELECT=YES,FORCED=\(r.forced ? "YES" : "NO"),"
                    + "URI=\"\(folder)/index.m3u8\"")
        }
        return lines
    }

    /// Makes (once) the flash-and-beep clip (`Fixtures.flashAndBeep`: a white flash and a 1 kHz beep start together
    /// at 1, 2, 3, 4 and 5 s) as HLS in `flash-beep/`, twice: `muxed.m3u8`, one variant with both in 2 s MPEG-TS
    /// segments; `master.m3u8`, a video-only variant (2 s segments) whose sound is an audio rendition in 4 s
    /// segments, both copied from the first. Returns the two playlists' paths on the server.
    public static func flashBeepStreams() throws -> (muxed: String, renditions: String) {
        let dir = try root().appendingPathComponent("flash-beep")
        let paths = ("flash-beep/muxed/index.m3u8", "flash-beep/master.m3u8")
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("master.m3u8").path) { return paths }
        let video = [
            "-f", "lavfi", "-i", "color=c=black:s=320x240:r=25:d=6",
            "-vf", "geq=lum='if(gte(T\\,1)*lt(mod(T\\,1)\\,0.1)\\,235\\,16)':cb=128:cr=128",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p",
        ]
        let audio = [
            "-f", "lavfi", "-i",
            "aevalsrc='if(gte(t\\,1)*lt(mod(t\\,1)\\,0.1)\\,0.5*sin(2*PI*1000*t)\\,0)':s=48000:d=6",
            "-c:a", "aac", "-ac", "2",
        ]
        // Inputs first, then the options of each stream.
        try encode(
            into: dir.appendingPathComponent("muxed"), segmentSeconds: 2,
            Array(video[0..<4]) + Array(audio[0..<4]) + Array(video[4...]) + Array(audio[4...]))
        // The renditions as a packager cuts them from the same encode: the streams copied with their time stamps
        // (two encodes would not line up: the sound's priming and the pictures' reordering delay differ).
        let muxed = dir.appendingPathComponent("muxed/index.m3u8").path
        try encode(
            into: dir.appendingPathComponent("video"), segmentSeconds: 2,
            ["-i", muxed, "-map", "0:v", "-c", "copy", "-copyts"])
        try encode(
            into: dir.appendingPathComponent("audio"), segmentSeconds: 4,
            ["-i", muxed, "-map", "0:a", "-c", "copy", "-copyts"])
        let master = [
            "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS",
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"Beeps\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/index.m3u8\"",
            "#EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=320x240,CODECS=\"avc1.64000d,mp4a.40.2\",AUDIO=\"aud\"",
            "video/index.m3u8", "",
        ]
        try master.joined(separator: "\n").write(
            to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return paths
    }

    /// One `ffmpeg` run of `arguments` (inputs and codecs) into a VOD MPEG-TS playlist `dir/index.m3u8`.
    /// Encodes video-only rung `index` of a rendition ladder (`height` lines, 16:9, 400 kb/s per rung number,
    /// testsrc2 at 25 fps, a keyframe every 2 s) into `dir/v<index>/` as 2 s MPEG-TS segments.
    static func encodeVideoRung(_ index: Int, height: Int, into dir: URL, seconds: Int) throws {
        try encode(
            into: dir.appendingPathComponent("v\(index)"), segmentSeconds: 2,
            [
                "-f", "lavfi", "-i", "testsrc2=s=\(height * 16 / 9)x\(height):r=25:d=\(seconds)",
                "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "\(400 * (index + 1))k", "-g", "50",
                "-keyint_min", "50", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            ])
    }

    static func encode(into dir: URL, segmentSeconds: Int, _ arguments: [String]) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let r = try Run.command(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-y"] + arguments + [
                "-f", "hls", "-hls_time", "\(segmentSeconds)", "-hls_playlist_type", "vod",
                "-hls_segment_filename", dir.appendingPathComponent("seg%02d.ts").path,
                dir.appendingPathComponent("index.m3u8").path,
            ], timeout: 300)
        guard r.status == 0 else { throw TestSupportError("ffmpeg failed making \(dir.path): \(r.stderr)") }
    }
}
