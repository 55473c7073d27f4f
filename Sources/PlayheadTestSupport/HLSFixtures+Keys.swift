import Foundation

/// Encrypted HLS streams in the nginx root's `keys/` folder, made from clear ones: `ffmpeg`'s HLS muxer writes the
/// clear stream (6 s, 1 s segments, a chirp so recordings align without ambiguity), and `openssl enc` (installed
/// by `scripts/install-deps.sh`), an AES implementation independent of the player's, encrypts its files. (The same
/// set may be made of shorter streams in another folder: `make(_:seconds:)`.)
public enum KeyFixtures {
    /// The first key (served as `keys/key1.bin`).
    public static let keyOne: [UInt8] = [
        0x5B, 0x2F, 0x8C, 0x1E, 0x9D, 0x47, 0xA3, 0x60, 0xC4, 0x11, 0xE8, 0x7A, 0x36, 0xF2, 0x0D, 0x95,
    ]
    /// The second key (served as `keys/key2.bin`).
    public static let keyTwo: [UInt8] = [
        0xC7, 0x3A, 0x19, 0xE4, 0x52, 0x8B, 0x6F, 0xD0, 0x2E, 0x94, 0x71, 0x0B, 0xA8, 0x5D, 0xF6, 0x33,
    ]
    /// The explicit IV of the playlists that give one.
    public static let explicitIV: [UInt8] = [
        0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10,
    ]
    /// The media sequence number the rotating stream starts at (its IVs before the rotation are 100, 101, 102).
    public static let rotationSequence = 100

    /// Lowercase hexadecimal.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Makes (once) every stream and key in `keys/`, and returns the folder. Playlists (paths under the root):
    /// `keys/clear/index.m3u8` and `keys/clear-fmp4/index.m3u8` (clear); `keys/aes.m3u8` (key 1, IV from the
    /// media sequence number); `keys/rotate.m3u8` (one file of byte ranges; key 1 for segments 0-2 with IVs from
    /// media sequence 100, then key 2 with an explicit IV); `keys/fmp4.m3u8` (the init section under key 2 with an
    /// explicit IV, the segments under key 1); and over `aes/`'s segments with other key tags: `wrong-key`,
    /// `short-key` (15 bytes), `html-key`, `long-iv` (17 bytes), `unreadable-iv` (`IV=zzzz`), `data-key` (a base64
    /// `data:` URI), `forbidden-key` (`?status=403`, for the test origin), `custom-key` (`myapp-key://key1`),
    /// `sample-aes`, `sample-aes-ctr`, `aes-256`, `fairplay`; and `cenc.m3u8` (SAMPLE-AES-CTR: fMP4 Common Encryption
    /// under key 1) with its clear version `cenc-clear.m3u8` (`makeCommonEncryption`).
    /// With `folder` and `seconds`, the same set in that folder of the nginx root, its clear streams `seconds` long
    /// (at least 4: the rotating stream changes key at its fourth segment).
    @discardableResult
    public static func make(_ folder: String = "keys", seconds: Int = 6) throws -> URL {
        let dir = try HLSFixtures.root().appendingPathComponent(folder)
        let done = dir.appendingPathComponent("fairplay.m3u8")
        if FileManager.default.fileExists(atPath: done.path) {
            try makeCommonEncryption(in: dir, seconds: seconds)
            return dir
        }
        let clear = try clearStream(dir.appendingPathComponent("clear"), fmp4: false, seconds: seconds)
        let clearFMP4 = try clearStream(dir.appendingPathComponent("clear-fmp4"), fmp4: true, seconds: seconds)
        let fm = FileManager.default
        try Data(keyOne).write(to: dir.appendingPathComponent("key1.bin"))
        try Data(keyTwo).write(to: dir.appendingPathComponent("key2.bin"))
        try Data(keyOne.prefix(15)).write(to: dir.appendingPathComponent("short.bin"))
        try "<!DOCTYPE html><html><body>Please log in</body></html>\n".write(
            to: dir.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)

        // AES-128: each segment under key 1, IV = its media sequence number (0...).
        let aes = dir.appendingPathComponent("aes")
        try fm.createDirectory(at: aes, withIntermediateDirectories: true)
        for (i, name) in clear.segments.enumerated() {
            try encrypt(
                clear.dir.appendingPathComponent(name), to: aes.appendingPathComponent(name), key: keyOne,
                iv: sequenceIV(i))
        }
        func keyed(_ tag: String) -> String {
            playlist(clear.text) { i, line in i == 0 ? [tag, "aes/" + line] : ["aes/" + line] }
        }
        let aesTag = "#EXT-X-KEY:METHOD=AES-128,URI=\"key1.bin\""
        let variants: [(String, String)] = [
            ("aes", aesTag),
            ("wrong-key", "#EXT-X-KEY:METHOD=AES-128,URI=\"key2.bin\""),
            ("short-key", "#EXT-X-KEY:METHOD=AES-128,URI=\"short.bin\""),
            ("html-key", "#EXT-X-KEY:METHOD=AES-128,URI=\"page.html\""),
            ("long-iv", "#EXT-X-KEY:METHOD=AES-128,URI=\"key1.bin\",IV=0x" + hex(explicitIV) + "00"),
            ("unreadable-iv", "#EXT-X-KEY:METHOD=AES-128,URI=\"key1.bin\",IV=zzzz"),
            (
                "data-key",
                "#EXT-X-KEY:METHOD=AES-128,URI=\"data:text/plain;base64,\(Data(keyOne).base64EncodedString())\""
            ),
            ("forbidden-key", "#EXT-X-KEY:METHOD=AES-128,URI=\"key1.bin?status=403\""),
            ("custom-key", "#EXT-X-KEY:METHOD=AES-128,URI=\"myapp-key://key1\""),
            ("sample-aes", "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"key1.bin\""),
            ("sample-aes-ctr", "#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI=\"key1.bin\""),
            ("aes-256", "#EXT-X-KEY:METHOD=AES-256,URI=\"key1.bin\""),
        ]
        for (name, tag) in variants {
            try keyed(tag).write(to: dir.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
        }

        // Rotation every 3 segments, in one file of byte ranges (each range encrypted on its own, as RFC 8216 says).
        var all = Data()
        var ranges: [String] = []
        for (i, name) in clear.segments.enumerated() {
            let out = Paths.scratch("keys").appendingPathComponent(name)
            let (key, iv) = i < 3 ? (keyOne, sequenceIV(rotationSequence + i)) : (keyTwo, explicitIV)
            try encrypt(clear.dir.appendingPathComponent(name), to: out, key: key, iv: iv)
            let bytes = try Data(contentsOf: out)
            ranges.append("#EXT-X-BYTERANGE:\(bytes.count)@\(all.count)")
            all.append(bytes)
            try? fm.removeItem(at: out.deletingLastPathComponent())
        }
        try all.write(to: dir.appendingPathComponent("rotate.ts"))
        let rotate = playlist(clear.text, sequence: rotationSequence) { i, _ in
            (i == 0 ? [aesTag] : [])
                + (i == 3
                    ? ["#EXT-X-KEY:METHOD=AES-128,URI=\"key2.bin\",IV=0x" + hex(explicitIV).uppercased()] : [])
                + [ranges[i], "rotate.ts"]
        }
        try rotate.write(to: dir.appendingPathComponent("rotate.m3u8"), atomically: true, encoding: .utf8)

        // fMP4: the init section under key 2 (explicit IV, as the RFC requires for an encrypted map), the
        // segments under key 1 (IV from the sequence number).
        let fmp4 = dir.appendingPathComponent("fmp4")
        try fm.createDirectory(at: fmp4, withIntermediateDirectories: true)
        try encrypt(
            clearFMP4.dir.appendingPathComponent("init.mp4"), to: fmp4.appendingPathComponent("init.mp4"),
            key: keyTwo, iv: explicitIV)
        for (i, name) in clearFMP4.segments.enumerated() {
            try encrypt(
                clearFMP4.dir.appendingPathComponent(name), to: fmp4.appendingPathComponent(name), key: keyOne,
                iv: sequenceIV(i))
        }
        let fmp4Text = playlist(clearFMP4.text, dropMap: true) { i, line in
            (i == 0
                ? [
                    "#EXT-X-KEY:METHOD=AES-128,URI=\"key2.bin\",IV=0x" + hex(explicitIV),
                    "#EXT-X-MAP:URI=\"fmp4/init.mp4\"", aesTag,
                ] : []) + ["fmp4/" + line]
        }
        try fmp4Text.write(to: dir.appendingPathComponent("fmp4.m3u8"), atomically: true, encoding: .utf8)

        let fairplay = keyed(
            "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://key1\",KEYFORMAT=\"com.apple.streamingkeydelivery\","
                + "KEYFORMATVERSIONS=\"1\"")
        try fairplay.write(to: done, atomically: true, encoding: .utf8)
        try makeCommonEncryption(in: dir, seconds: seconds)
        return dir
    }

    /// The IV RFC 8216 derives from a media sequence number: the number as a 128-bit big-endian integer.
    public static func sequenceIV(_ n: Int) -> [UInt8] {
        (0..<16).map { i in i < 8 ? 0 : UInt8(truncatingIfNeeded: UInt64(n) >> (8 * (15 - i))) }
    }

    /// A clear stream of `seconds` in 1 s segments in `dir`: its playlist text and segment names.
    private static func clearStream(
        _ dir: URL, fmp4: Bool, seconds: Int
    ) throws -> (dir: URL, text: String, segments: [String]) {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let index = dir.appendingPathComponent("index.m3u8")
        let r = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=\(seconds)",
                "-f", "lavfi", "-i", "aevalsrc='0.3*sin(2*PI*(200*t+40*t*t))':s=48000:d=\(seconds)",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-b:a", "128k", "-fflags", "+bitexact",
                "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
            ]
                + (fmp4 ? ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] : [])
                + [
                    "-hls_segment_filename", dir.appendingPathComponent(fmp4 ? "seg%02d.m4s" : "seg%02d.ts").path,
                    index.path,
                ], timeout: 300)
        guard r.status == 0 else { throw TestSupportError("ffmpeg failed making \(dir.path): \(r.stderr)") }
        let text = try String(contentsOf: index, encoding: .utf8)
        let segments = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        return (dir, text, segments)
    }

    /// `text` (a clear VOD playlist) with each segment line `i` replaced by `lines(i, line)`; the media sequence
    /// set to `sequence`; its `EXT-X-MAP` dropped with `dropMap` (the replacement writes its own).
    private static func playlist(
        _ text: String, sequence: Int = 0, dropMap: Bool = false, _ lines: (Int, String) -> [String]
    ) -> String {
        var out: [String] = []
        var index = 0
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#EXT-X-VERSION:") {
                // Byte ranges and explicit IVs need newer versions than a clear TS playlist's 3.
                out.append("#EXT-X-VERSION:7")
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                out.append("#EXT-X-MEDIA-SEQUENCE:\(sequence)")
            } else if dropMap && line.hasPrefix("#EXT-X-MAP:") {
                continue
            } else if !line.isEmpty && !line.hasPrefix("#") {
                out += lines(index, line)
                index += 1
            } else {
                out.append(line)
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Encrypts `input` into `output` with AES-128-CBC and PKCS7 padding (`openssl enc`).
    private static func encrypt(_ input: URL, to output: URL, key: [UInt8], iv: [UInt8]) throws {
        let r = try Run.command(
            "openssl",
            ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", input.path, "-out", output.path])
        guard r.status == 0 else { throw TestSupportError("openssl failed on \(input.lastPathComponent): \(r.stderr)") }
    }
}
