import Foundation

extension HLSFixtures {
    /// Broken HLS inputs, written (once) into `bad/` of the nginx root; each case's playlist path on the server
    /// and the URL path its error must name.
    public enum BadInput: String, CaseIterable, Sendable {
        /// A multivariant playlist whose variants all use a codec nobody decodes.
        case noPlayableVariant = "no-variant.m3u8"
        /// A media playlist that ends without listing a segment.
        case noSegments = "no-segments.m3u8"
        /// A segment that is an HTML page.
        case htmlSegment = "html-segment.m3u8"
        /// A multivariant playlist whose chosen variant's playlist is missing (404).
        case missingVariant = "missing-variant.m3u8"
        /// A multivariant playlist none of whose two variants' playlists exist (404): the error names it.
        case missingVariants = "missing-variants.m3u8"
        /// A 100 MB playlist.
        case hugePlaylist = "huge.m3u8"
        /// A media playlist whose `EXT-X-MAP` init section is the playlist itself.
        case playlistAsInitSection = "playlist-map.m3u8"

        /// The path of the thing the error must name (the playlist, or the offending segment or variant).
        public var culprit: String {
            switch self {
            case .htmlSegment: "bad/page.ts"
            case .missingVariant: "bad/nowhere/index.m3u8"
            default: "bad/\(rawValue)"
            }
        }
    }

    /// Writes the broken inputs into `bad/` (the 100 MB playlist only once) and returns the folder.
    @discardableResult
    public static func badInputs() throws -> URL {
        let dir = try root().appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write(
            BadInput.noPlayableVariant.rawValue,
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"zzz1.1\"\nv/index.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS=\"zzz2.1\"\nv2/index.m3u8\n")
        try write(
            BadInput.noSegments.rawValue, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-ENDLIST\n")
        try write(
            BadInput.htmlSegment.rawValue,
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\npage.ts\n#EXTINF:2,\npage.ts\n#EXT-X-ENDLIST\n")
        try write(
            "page.ts",
            "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>\n")
        try write(
            BadInput.playlistAsInitSection.rawValue,
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"playlist-map.m3u8\"\n#EXTINF:2,\n"
                + "page.ts\n#EXT-X-ENDLIST\n")
        try write(
            BadInput.missingVariant.rawValue,
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"mp4a.40.2\"\nnowhere/index.m3u8\n")
        try write(
            BadInput.missingVariants.rawValue,
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"mp4a.40.2\"\nnowhere/index.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS=\"mp4a.40.2\"\nnowhere2/index.m3u8\n")
        let huge = dir.appendingPathComponent(BadInput.hugePlaylist.rawValue)
        let size = (try? FileManager.default.attributesOfItem(atPath: huge.path)[.size] as? Int) ?? 0
        if size < 100_000_000 {
            _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
            let handle = try FileHandle(forWritingTo: huge)
            defer { try? handle.close() }
            handle.write(Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n".utf8))
            let block = Data(String(repeating: "#EXTINF:2,\nsegment.ts\n", count: 50_000).utf8)
            var written = 0
            while written < 100_000_000 {
                handle.write(block)
                written += block.count
            }
            handle.write(Data("#EXT-X-ENDLIST\n".utf8))
        }
        return dir
    }

    /// Writes `bad/endless.m3u8` for the test origin: two segments of the TS ladder, the second of which stops
    /// sending after 1000 bytes and never finishes. Returns its path on the origin and the stalled segment's.
    public static func endlessSegment() throws -> (playlist: String, segment: String) {
        _ = try tsLadder()
        let dir = try badInputs()
        let segment = "ladder-ts/v0/seg01.ts"
        try
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n../ladder-ts/v0/seg00.ts\n#EXTINF:2,\n../\(segment)?stall_after=1000&stall_for=600\n#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent("endless.m3u8"), atomically: true, encoding: .utf8)
        return ("bad/endless.m3u8", segment)
    }
}

extension HLSFixtures {
    /// A ladder (`name/master.m3u8`) over the segments of `ladder-long` (48 s, made once) whose playlists name
    /// those segments through `../../ladder-long/...` with `query(variant, segment)` appended (empty for none): to
    /// make chosen segments slow or broken on the test origin. `segments` keeps only the first ones (a shorter
    /// stream, for a test that needs no more).
    public static func derivedLadder(
        _ name: String, segments limit: Int = .max, query: (Int, Int) -> String
    ) throws -> String {
        let source = try tsLadder("ladder-long", seconds: 48)
        let base = try root()
        let dir = base.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try String(contentsOf: base.appendingPathComponent(source), encoding: .utf8)
            .write(to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        for variant in 0..<rungs.count {
            let text = try String(
                contentsOf: base.appendingPathComponent("ladder-long/v\(variant)/index.m3u8"), encoding: .utf8)
            var segment = 0
            var lines: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("#EXTINF"), segment >= limit { continue }
                guard line.hasSuffix(".ts") else {
                    lines.append(String(line))
                    continue
                }
                defer { segment += 1 }
                guard segment < limit else { continue }
                let q = query(variant, segment)
                lines.append("../../ladder-long/v\(variant)/\(line)" + (q.isEmpty ? "" : "?\(q)"))
            }
            let out = dir.appendingPathComponent("v\(variant)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try lines.joined(separator: "\n").write(
                to: out.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        }
        return "\(name)/master.m3u8"
    }
}

extension HLSFixtures {
    /// `disc/index.m3u8`: 8 s, the first two segments of one 8 s encode, `EXT-X-DISCONTINUITY`, then the first two of
    /// another whose time stamps start 1000 s later (both with a 500 Hz tone and a test picture).
    public static func discontinuityStream() throws -> String {
        let a = try stream("disc-a", tone: 500, [])
        let b = try stream("disc-b", tone: 500, ["-output_ts_offset", "1000"])
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (i, part) in [a, b].enumerated() {
            if i > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            let folder = part.split(separator: "/")[0]
            for n in 0..<2 { lines += ["#EXTINF:2.000000,", "../\(folder)/index\(n).ts"] }
        }
        lines.append("#EXT-X-ENDLIST")
        let dir = try root().appendingPathComponent("disc")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        return "disc/index.m3u8"
    }
}

extension HLSFixtures {
    /// Makes (once) a packed-audio stream in `name/`: `seconds` of a `tone` encoded with `codec` into raw 2 s
    /// segments (`format`: "adts", "mp3" or "ac3"; files `segNN.ext`), each led by an ID3 tag whose `PRIV` frame
    /// `com.apple.streaming.transportStreamTimestamp` carries its start on the 90 kHz clock, as RFC 8216 3.4 says.
    public static func packedAudio(
        _ name: String, codec: String, format: String, ext: String, tone: Int, seconds: Int = 8
    ) throws -> String {
        let dir = try root().appendingPathComponent(name)
        let playlist = dir.appendingPathComponent("index.m3u8")
        if FileManager.default.fileExists(atPath: playlist.path) { return "\(name)/index.m3u8" }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let list = dir.appendingPathComponent("list.csv")
        let r = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                "sine=frequency=\(tone):duration=\(seconds):sample_rate=48000", "-c:a", codec, "-ac", "2", "-f",
                "segment",
                "-segment_time", "2", "-segment_format", format,
            ] + (format == "mp3" ? ["-segment_format_options", "id3v2_version=0"] : []) + [
                "-segment_list", list.path, "-segment_list_type", "csv",
                dir.appendingPathComponent("raw%02d.\(ext)").path,
            ], timeout: 120)
        guard r.status == 0 else { throw TestSupportError("ffmpeg failed making \(name): \(r.stderr)") }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:3", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for (i, row) in try String(contentsOf: list, encoding: .utf8).split(separator: "\n").enumerated() {
            let fields = row.split(separator: ",")
            guard fields.count == 3, let start = Double(fields[1]), let end = Double(fields[2]), end - start > 0.05
            else { continue }
            let raw = try Data(contentsOf: dir.appendingPathComponent(String(fields[0])))
            let segment = String(format: "seg%02d.\(ext)", i)
            try (id3Timestamp(UInt64((start * 90_000).rounded())) + raw).write(
                to: dir.appendingPathComponent(segment))
            lines += [String(format: "#EXTINF:%.6f,", end - start), segment]
        }
        lines.append("#EXT-X-ENDLIST")
        try (lines.joined(separator: "\n") + "\n").write(to: playlist, atomically: true, encoding: .utf8)
        return "\(name)/index.m3u8"
    }

    /// An ID3v2.4 tag holding the packed-audio time stamp `PRIV` frame.
    static func id3Timestamp(_ ticks: UInt64) -> Data {
        let owner = Data("com.apple.streaming.transportStreamTimestamp".utf8) + Data([0])
        let stamp = Data((0..<8).reversed().map { UInt8((ticks >> (8 * UInt64($0))) & 0xFF) })
        let body = owner + stamp
        func syncsafe(_ n: Int) -> Data { Data([3, 2, 1, 0].map { UInt8((n >> (7 * $0)) & 0x7F) }) }
        let frame = Data("PRIV".utf8) + syncsafe(body.count) + Data([0, 0]) + body
        return Data("ID3".utf8) + Data([4, 0, 0]) + syncsafe(frame.count) + frame
    }
}
