import Foundation

extension HLSFixtures {
    /// Makes (once) a ladder in `grouped-renditions/` whose two video-only MPEG-TS variants (`v0` 360p, `v1` 720p,
    /// 2 s segments) name two audio groups, each with one English rendition (`DEFAULT`, audio-only MPEG-TS in 4 s
    /// segments): `v0` the group `stereo` (`a-stereo`: AAC stereo, a 440 Hz tone), `v1` the group `surround`
    /// (`a-surround`: AC-3 5.1, a 660 Hz tone). `seconds` long; returns the multivariant playlist's path.
    public static func groupedRenditionLadder(seconds: Int = 16) throws -> String {
        let name = "grouped-renditions"
        let dir = try root().appendingPathComponent(name)
        let master = dir.appendingPathComponent("master.m3u8")
        if FileManager.default.fileExists(atPath: master.path) { return "\(name)/master.m3u8" }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let groups = [
            (group: "stereo", folder: "a-stereo", tone: 440, codec: ["-c:a", "aac", "-ac", "2", "-b:a", "128k"]),
            (group: "surround", folder: "a-surround", tone: 660, codec: ["-c:a", "ac3", "-ac", "6", "-b:a", "384k"]),
        ]
        for g in groups {
            try encode(
                into: dir.appendingPathComponent(g.folder), segmentSeconds: 4,
                ["-f", "lavfi", "-i", "sine=frequency=\(g.tone):duration=\(seconds):sample_rate=48000"] + g.codec)
            lines.append(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(g.group)\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,"
                    + "AUTOSELECT=YES,CHANNELS=\"\(g.group == "stereo" ? 2 : 6)\",URI=\"\(g.folder)/index.m3u8\"")
        }
        for (i, height) in [360, 720].enumerated() {
            let width = height * 16 / 9
            try encodeVideoRung(i, height: height, into: dir, seconds: seconds)
            let sound = i == 0 ? "mp4a.40.2" : "ac-3"
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\((400 * (i + 1) + 400) * 1000),RESOLUTION=\(width)x\(height),"
                    + "CODECS=\"avc1.64001f,\(sound)\",AUDIO=\"\(groups[i].group)\"")
            lines.append("v\(i)/index.m3u8")
        }
        try (lines.joined(separator: "\n") + "\n").write(to: master, atomically: true, encoding: .utf8)
        return "\(name)/master.m3u8"
    }
}
