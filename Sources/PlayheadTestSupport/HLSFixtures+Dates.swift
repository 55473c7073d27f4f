import Foundation

extension HLSFixtures {
    /// `dated/index.m3u8`: the discontinuity stream's four 2 s segments, dated by `EXT-X-PROGRAM-DATE-TIME`: the
    /// first two from 2026-01-01T10:00:00Z, the two after the discontinuity from 12:00:00Z (a recording resumed
    /// two hours later).
    public static func datedStream() throws -> String {
        _ = try discontinuityStream()
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (i, (folder, date)) in [("disc-a", "10:00:00"), ("disc-b", "12:00:00")].enumerated() {
            if i > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T\(date).000Z")
            for n in 0..<2 { lines += ["#EXTINF:2.000000,", "../\(folder)/index\(n).ts"] }
        }
        lines.append("#EXT-X-ENDLIST")
        let dir = try root().appendingPathComponent("dated")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        return "dated/index.m3u8"
    }
}
