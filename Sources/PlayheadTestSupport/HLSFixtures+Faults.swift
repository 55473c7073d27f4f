import Foundation

/// Playlists over the clear stream of `KeyFixtures` (6 segments of 1 s in `keys/clear/`) whose segments are asked
/// for with the test origin's fault parameters (`scripts/test-origin.py`), and ladders of two variants of it.
public enum FaultFixtures {
    /// Writes `keys/NAME.m3u8`: the clear stream, with `query` added to the URIs of the segments in `segments`.
    /// Returns its path under the root.
    @discardableResult
    public static func playlist(_ name: String, segments: Set<Int>, query: String) throws -> String {
        let dir = try KeyFixtures.make()
        let clear = try String(contentsOf: dir.appendingPathComponent("clear/index.m3u8"), encoding: .utf8)
        var index = 0
        let lines = clear.split(separator: "\n").map { line -> String in
            guard !line.isEmpty, !line.hasPrefix("#") else { return String(line) }
            defer { index += 1 }
            return "clear/\(line)" + (segments.contains(index) ? "?\(query)" : "")
        }
        try (lines.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
        return "keys/\(name).m3u8"
    }

    /// Writes `keys/NAME.m3u8`: a multivariant playlist of `first` (the lower bit rate, where playback starts)
    /// and `second` (paths relative to `keys/`). Returns its path under the root.
    @discardableResult
    public static func ladder(_ name: String, first: String, second: String) throws -> String {
        let dir = try KeyFixtures.make()
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS="avc1.42c00d,mp4a.40.2"
            \(first)
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=320x180,CODECS="avc1.42c00d,mp4a.40.2"
            \(second)

            """
        try text.write(to: dir.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
        return "keys/\(name).m3u8"
    }

    /// Writes `NAME.m3u8` in the root's folder `folder`: a multivariant playlist listing two copies of one variant
    /// (the same attributes, another URI): `primary`, then `backup` (relative to `folder`, or absolute: another
    /// host), in the pathways `pathways` names (`PATHWAY-ID`) or in none. Returns its path under the root.
    @discardableResult
    public static func redundant(
        _ name: String, in folder: String = "keys", primary: String, backup: String,
        pathways: (primary: String, backup: String)? = nil
    ) throws -> String {
        let dir = try HLSFixtures.root().appendingPathComponent(folder)
        let stream = "#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS=\"avc1.64001f,mp4a.40.2\""
        let (a, b) = pathways.map { (",PATHWAY-ID=\"\($0.primary)\"", ",PATHWAY-ID=\"\($0.backup)\"") } ?? ("", "")
        let text = ["#EXTM3U", stream + a, primary, stream + b, backup, ""].joined(separator: "\n")
        try text.write(to: dir.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
        return "\(folder)/\(name).m3u8"
    }
}
