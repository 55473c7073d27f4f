import Foundation

extension HLSFixtures {
    /// Makes (once) in `name/` an MPEG-TS ladder whose segment sizes are exactly given, for replaying an ABR
    /// simulator's movie through the real player: one small encode (160x90 test picture and a tone, 50 kbit/s
    /// video, segments of `segmentDuration` seconds) is cut into segments, and each variant's segment `k` is that
    /// segment padded with MPEG-TS null packets (PID 0x1FFF, which demuxers drop) to `sizes[k][rung]` bytes
    /// (rounded down to whole packets). `master.m3u8` declares each rung's `BANDWIDTH` from `bitratesKbps`.
    /// Throws when a size is smaller than the encoded segment. Returns the master playlist's path on the server.
    /// Runs `ffmpeg`; safe from any thread, but not from two at once for the same `name`.
    public static func paddedLadder(
        _ name: String, segmentDuration: Double, bitratesKbps: [Double], sizes: [[Int]]
    ) throws -> String {
        let dir = try root().appendingPathComponent(name)
        let master = dir.appendingPathComponent("master.m3u8")
        if FileManager.default.fileExists(atPath: master.path) { return "\(name)/master.m3u8" }
        let base = dir.appendingPathComponent("base")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let seconds = Double(sizes.count) * segmentDuration
        let frames = Int((segmentDuration * 25).rounded())
        let result = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=\(seconds)",
                "-f", "lavfi", "-i", "sine=frequency=500:duration=\(seconds):sample_rate=48000",
                "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "50k", "-maxrate", "60k", "-bufsize", "120k",
                "-g", "\(frames)", "-keyint_min", "\(frames)", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-ac", "1", "-b:a", "32k", "-f", "hls", "-hls_time", "\(segmentDuration)",
                "-hls_playlist_type", "vod", "-hls_segment_filename", base.appendingPathComponent("seg%03d.ts").path,
                base.appendingPathComponent("index.m3u8").path,
            ], timeout: 300)
        guard result.status == 0 else { throw TestSupportError("ffmpeg failed making \(name): \(result.stderr)") }
        var null = Data([0x47, 0x1F, 0xFF, 0x10])
        null.append(Data(repeating: 0xFF, count: 184))
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for (rung, kbps) in bitratesKbps.enumerated() {
            let out = dir.appendingPathComponent("v\(rung)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            var playlist = [
                "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(Int(segmentDuration.rounded(.up)))",
                "#EXT-X-PLAYLIST-TYPE:VOD",
            ]
            for (k, row) in sizes.enumerated() {
                let segment = base.appendingPathComponent(String(format: "seg%03d.ts", k))
                var data = try Data(contentsOf: segment)
                let target = row[rung] / 188 * 188
                guard data.count <= target else {
                    throw TestSupportError("\(segment.path): \(data.count) bytes, more than \(target) for rung \(rung)")
                }
                data.reserveCapacity(target)
                while data.count < target { data.append(null) }
                try data.write(to: out.appendingPathComponent(String(format: "seg%03d.ts", k)))
                playlist += [String(format: "#EXTINF:%.3f,", segmentDuration), String(format: "seg%03d.ts", k)]
            }
            playlist.append("#EXT-X-ENDLIST")
            try (playlist.joined(separator: "\n") + "\n").write(
                to: out.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
            lines += [
                "#EXT-X-STREAM-INF:BANDWIDTH=\(Int(kbps * 1000)),RESOLUTION=160x90,CODECS=\"avc1.64000c,mp4a.40.2\"",
                "v\(rung)/index.m3u8",
            ]
        }
        try (lines.joined(separator: "\n") + "\n").write(to: master, atomically: true, encoding: .utf8)
        return "\(name)/master.m3u8"
    }
}
