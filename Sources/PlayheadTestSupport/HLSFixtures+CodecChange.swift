import Foundation

/// Streams whose codecs change part-way, as an ad spliced in with `EXT-X-DISCONTINUITY` does.
extension HLSFixtures {
    /// `disc-codec/index.m3u8`: 4 s of H.264 640x360 with stereo AAC at 48 kHz (a 500 Hz tone; `disc-a`), then,
    /// after an `EXT-X-DISCONTINUITY`, 4 s of MPEG-2 video 480x270 with mono AC-3 at 44.1 kHz (a 1000 Hz tone)
    /// whose time stamps start 1000 s on: an ad coded otherwise.
    public static func codecChangeStream() throws -> String {
        let a = try stream("disc-a", tone: 500, [])
        let dir = try root().appendingPathComponent("disc-codec-b")
        let playlist = dir.appendingPathComponent("index.m3u8")
        if !FileManager.default.fileExists(atPath: playlist.path) {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let r = try Run.command(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=480x270:r=25:d=4", "-f", "lavfi",
                    "-i", "sine=frequency=1000:duration=4:sample_rate=44100", "-c:v", "mpeg2video", "-g", "25",
                    "-b:v", "1M", "-c:a", "ac3", "-ac", "1", "-output_ts_offset", "1000", "-f", "hls",
                    "-hls_time", "2", "-hls_playlist_type", "vod", playlist.path,
                ], timeout: 120)
            guard r.status == 0 else { throw TestSupportError("ffmpeg failed making disc-codec-b: \(r.stderr)") }
        }
        return try joinedAtDiscontinuities("disc-codec", [a, "disc-codec-b/index.m3u8"])
    }

    /// `name/index.m3u8`: the segments (and init sections) of the VOD media playlists at `paths` (in the nginx
    /// root), one playlist after the other, each after the first behind an `EXT-X-DISCONTINUITY`.
    public static func joinedAtDiscontinuities(_ name: String, _ paths: [String]) throws -> String {
        let root = try root()
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:3", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (i, path) in paths.enumerated() {
            if i > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            let folder = (path as NSString).deletingLastPathComponent
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if line.hasPrefix("#EXT-X-MAP:URI=\"") {
                    lines.append("#EXT-X-MAP:URI=\"../\(folder)/" + line.dropFirst("#EXT-X-MAP:URI=\"".count))
                } else if line.hasPrefix("#EXTINF") || !line.hasPrefix("#") {
                    lines.append(line.hasPrefix("#") ? String(line) : "../\(folder)/\(line)")
                }
            }
        }
        lines.append("#EXT-X-ENDLIST")
        let dir = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        return "\(name)/index.m3u8"
    }

    /// `name/master.m3u8`: one variant, the media playlist at `path` (in the nginx root), with `CODECS` and
    /// `RESOLUTION` attributes.
    public static func oneVariant(
        _ name: String, _ path: String, codecs: String = "avc1.64001e,mp4a.40.2", resolution: String = "640x360"
    ) throws -> String {
        let dir = try root().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let text =
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=\(resolution),CODECS=\"\(codecs)\"\n../\(path)\n"
        try text.write(to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return "\(name)/master.m3u8"
    }
}
