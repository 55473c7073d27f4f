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

    /// Makes (once) a ladder whose variants carry no sound, in `name/`: two video-only MPEG-TS variants (`v0`
    /// 360p, `v1` 720p, 2 s segments) naming the audio group `aud`, whose renditions (`a-en`, `a-de`, audio-only
    /// MPEG-TS in 4 s segments, so their boundaries are not the video's) carry the tones of `audioRenditions`.
    /// Everything is `seconds` long; returns the multivariant playlist's path on the server.
    public static func renditionLadder(_ name: String = "renditions", seconds: Int = 8) throws -> String {
        let dir = try root().appendingPathComponent(name)
        let master = dir.appendingPathComponent("master.m3u8")
        if FileManager.default.fileExists(atPath: master.path) { return "\(name)/master.m3u8" }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for (i, r) in audioRenditions.enumerated() {
            try encode(
                into: dir.appendingPathComponent("a-\(r.language)"), segmentSeconds: 4,
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
            try encode(
                into: dir.appendingPathComponent("v\(i)"), segmentSeconds: 2,
                [
                    "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=25:d=\(seconds)",
                    "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "\(400 * (i + 1))k", "-g", "50",
                    "-keyint_min", "50", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                ])
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\((400 * (i + 1) + 110) * 1000),RESOLUTION=\(width)x\(height),"
                    + "CODECS=\"avc1.64001f,mp4a.40.2\",AUDIO=\"aud\"")
            lines.append("v\(i)/index.m3u8")
        }
        try (lines.joined(separator: "\n") + "\n").write(to: master, atomically: true, encoding: .utf8)
        return "\(name)/master.m3u8"
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
    private static func encode(into dir: URL, segmentSeconds: Int, _ arguments: [String]) throws {
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
