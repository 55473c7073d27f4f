import Foundation

extension Fixtures {
    /// 30 s of sound in Matroska with three chapters of 10 s, "Opening", "Middle" and "Closing", each its own tone
    /// (440, 550 and 660 Hz), so a test hears which chapter plays.
    public static func chaptered() throws -> URL {
        let meta = Paths.fixtures.appendingPathComponent("chapters.ffmeta")
        var text = ";FFMETADATA1\ntitle=Chaptered\n"
        for (i, name) in ["Opening", "Middle", "Closing"].enumerated() {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(i * 10_000)\nEND=\((i + 1) * 10_000)\ntitle=\(name)\n"
        }
        if (try? String(contentsOf: meta, encoding: .utf8)) != text {
            try text.write(to: meta, atomically: true, encoding: .utf8)
        }
        return try make(
            "chaptered.mka",
            [
                "-f", "lavfi", "-i",
                "aevalsrc=sin(2*PI*if(lt(t\\,10)\\,440\\,if(lt(t\\,20)\\,550\\,660))*t):s=48000:d=30", "-i",
                meta.path, "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-c:a", "libvorbis",
            ])
    }
}
