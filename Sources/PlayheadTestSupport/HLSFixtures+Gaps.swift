import Foundation

/// Streams with segments missing (`EXT-X-GAP`, a 404) or misdescribed (`EXTINF`s that understate).
extension HLSFixtures {
    /// `gap/index.m3u8`: the 8 s TS ladder's 360p variant with its second segment marked `EXT-X-GAP`.
    public static func gapStream() throws -> String {
        try writeGapPlaylist("gap/index.m3u8")
        return "gap/index.m3u8"
    }

    /// Writes the 8 s TS ladder's 360p variant with its second segment marked `EXT-X-GAP` at `path` (a file one
    /// folder below the root).
    private static func writeGapPlaylist(_ path: String) throws {
        _ = try tsLadder()
        let file = try root().appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var lines = ["#EXTM3U", "#EXT-X-VERSION:8", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for n in 0..<4 {
            if n == 1 { lines.append("#EXT-X-GAP") }
            lines += ["#EXTINF:2.000000,", "../ladder-ts/v0/seg0\(n).ts"]
        }
        lines.append("#EXT-X-ENDLIST")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    /// `understated-4s/short.m3u8`: a 4 s stream (520 Hz, 2 s MPEG-TS segments) whose `EXTINF`s say a fifth of
    /// what its segments hold (the playlist declares 0.8 s).
    public static func understatedStream() throws -> String {
        let path = try stream("understated-4s", tone: 520, seconds: 4, ["-hls_segment_type", "mpegts"])
        let source = try root().appendingPathComponent(path)
        let text = try String(contentsOf: source, encoding: .utf8)
        let short = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("#EXTINF:"), let d = Double(line.dropFirst(8).prefix { $0 != "," }) else {
                return line.hasPrefix("#EXT-X-TARGETDURATION:") ? "#EXT-X-TARGETDURATION:1" : String(line)
            }
            return "#EXTINF:\(d / 5),"
        }.joined(separator: "\n")
        try short.write(
            to: source.deletingLastPathComponent().appendingPathComponent("short.m3u8"), atomically: true,
            encoding: .utf8)
        return "understated-4s/short.m3u8"
    }

    /// `gap-ladder/master.m3u8`: the 8 s TS ladder's two lowest variants, the lower (360p, 400 Hz) with its second
    /// segment marked `EXT-X-GAP`, the other (540p, 500 Hz) whole.
    public static func gapLadder() throws -> String {
        try writeGapPlaylist("gap-ladder/v0.m3u8")
        let dir = try root().appendingPathComponent("gap-ladder")
        let master = try String(contentsOf: root().appendingPathComponent("ladder-ts/master.m3u8"), encoding: .utf8)
            .split(separator: "\n").prefix(7).map { line in
                line == "v0/index.m3u8" ? "v0.m3u8" : line.hasSuffix(".m3u8") ? "../ladder-ts/\(line)" : String(line)
            }
        try (master.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return "gap-ladder/master.m3u8"
    }

    /// The flash-and-beep clip with its sound in an audio rendition (`flashBeepStreams`' `master.m3u8`) whose
    /// video playlist lacks its second segment (the flashes at 2 and 3 s; the sound is whole): marked `EXT-X-GAP`
    /// in `flash-beep/gap.m3u8`, asked for with the test origin's `status=404` (every time) in `lost.m3u8`.
    /// Returns the multivariant playlist's path on the server.
    public static func flashBeepWithVideoGap(marked: Bool) throws -> String {
        _ = try flashBeepStreams()
        let dir = try root().appendingPathComponent("flash-beep")
        let name = marked ? "gap" : "lost"
        let video = try String(contentsOf: dir.appendingPathComponent("video/index.m3u8"), encoding: .utf8)
        let lines = video.split(separator: "\n").flatMap { line -> [String] in
            guard line == "seg01.ts" else { return [String(line)] }
            return marked ? ["#EXT-X-GAP", "seg01.ts"] : ["seg01.ts?status=404"]
        }
        try (lines.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("video/\(name).m3u8"), atomically: true, encoding: .utf8)
        let master = try String(contentsOf: dir.appendingPathComponent("master.m3u8"), encoding: .utf8)
        try master.replacingOccurrences(of: "video/index.m3u8", with: "video/\(name).m3u8").write(
            to: dir.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
        return "flash-beep/\(name).m3u8"
    }
}
