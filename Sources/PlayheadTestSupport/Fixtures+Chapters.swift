import Foundation

extension Fixtures {
    /// 30 s of sound in Matroska with three chapters of 10 s, "Opening", "Middle" and "Closing", each its own tone
    /// (440, 550 and 660 Hz), so a test hears which chapter plays; with `video`, a 160x120 test picture too (in a
    /// window).
    public static func chaptered(video: Bool = false) throws -> URL {
        let meta = Paths.fixtures.appendingPathComponent("chapters.ffmeta")
        var text = ";FFMETADATA1\ntitle=Chaptered\n"
        for (i, name) in ["Opening", "Middle", "Closing"].enumerated() {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(i * 10_000)\nEND=\((i + 1) * 10_000)\ntitle=\(name)\n"
        }
        if (try? String(contentsOf: meta, encoding: .utf8)) != text {
            try text.write(to: meta, atomically: true, encoding: .utf8)
        }
        let sound = [
            "-f", "lavfi", "-i", "aevalsrc=sin(2*PI*if(lt(t\\,10)\\,440\\,if(lt(t\\,20)\\,550\\,660))*t):s=48000:d=30",
        ]
        let chapters = ["-i", meta.path, "-map_metadata", "1", "-map_chapters", "1", "-c:a", "libvorbis"]
        guard video else { return try make("chaptered.mka", sound + chapters + ["-map", "0:a"]) }
        return try make(
            "chaptered.mkv",
            sound + ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=30"]
                + ["-i", meta.path, "-map_metadata", "2", "-map_chapters", "2", "-c:a", "libvorbis"]
                + ["-map", "0:a", "-map", "1:v", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    }
}
