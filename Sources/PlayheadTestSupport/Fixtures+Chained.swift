import Foundation

extension Fixtures {
    /// Three 4 s Vorbis songs, "Song A" (440 Hz, by "Band A"), "Song B" (550 Hz) and "Song C" (660 Hz), mono
    /// 44.1 kHz: the links of a chained Ogg stream, each with a serial number of its own (as encoders draw them;
    /// a bit-exact encode numbers every file's first stream 0).
    public static func oggSongs() throws -> [URL] {
        try [("A", 440, 101), ("B", 550, 102), ("C", 660, 103)].map { song, hertz, serial in
            try make(
                "chain-song-\(song).ogg",
                [
                    "-f", "lavfi", "-i", "sine=f=\(hertz):d=4", "-c:a", "libvorbis", "-metadata",
                    "title=Song \(song)", "-metadata", "artist=Band \(song)", "-serial_offset", "\(serial)",
                ])
        }
    }

    /// The three `oggSongs` joined end to end: a chained Ogg file of 12 s, whose time stamps start again at each
    /// song and whose last page is the last song's (FFmpeg takes its 4 s for the file's length).
    public static func chainedOgg() throws -> URL { try join(try oggSongs(), as: "chain-joined.ogg") }

    /// Songs coded otherwise joined end to end (10 s): "Song A" (440 Hz Vorbis, mono, 44.1 kHz, 4 s), "Song D"
    /// (1000 Hz Vorbis, stereo, 48 kHz, 3 s: the same codec with other headers) and "Song E" (800 Hz Opus, 3 s).
    public static func chainedOggOfMixedCodings() throws -> URL {
        let d = try make(
            "chain-song-D.ogg",
            [
                "-f", "lavfi", "-i", "sine=f=1000:d=3:sample_rate=48000", "-ac", "2", "-c:a", "libvorbis",
                "-metadata", "title=Song D", "-serial_offset", "104",
            ])
        let e = try make(
            "chain-song-E.ogg",
            [
                "-f", "lavfi", "-i", "sine=f=800:d=3:sample_rate=48000", "-c:a", "libopus", "-metadata", "title=Song E",
                "-serial_offset", "105",
            ])
        return try join([try oggSongs()[0], d, e], as: "chain-mixed.ogg")
    }

    /// Three 4 s Vorbis songs joined end to end (12 s), each with its own ReplayGain: 440 Hz at a track gain of
    /// -6.02 dB, 550 Hz at -12.04 dB, 660 Hz without one. `sameSerial`: every song's stream numbered 7, so FFmpeg
    /// reads the file as one stream whose comments change (as an Ogg radio's do); else each its own number.
    public static func chainedOggWithReplayGain(sameSerial: Bool) throws -> URL {
        let songs = try [(440, "-6.02 dB", 111), (550, "-12.04 dB", 112), (660, nil, 113)].map { hertz, gain, serial in
            let number = sameSerial ? 7 : serial
            return try make(
                "chain-gain-\(hertz)-\(number).ogg",
                ["-f", "lavfi", "-i", "sine=f=\(hertz):d=4", "-c:a", "libvorbis", "-metadata", "title=\(hertz) Hz"]
                    + (gain.map { ["-metadata", "REPLAYGAIN_TRACK_GAIN=\($0)"] } ?? [])
                    + ["-serial_offset", "\(number)"])
        }
        return try join(songs, as: sameSerial ? "chain-gain-one-serial.ogg" : "chain-gain.ogg")
    }

    /// `files` joined end to end as the fixture `name` (made again when a file changed), dated a minute back: a
    /// file written within the last seconds may still be growing, and players follow it as a recording
    /// (`FileFollower`).
    private static func join(_ files: [URL], as name: String) throws -> URL {
        let url = Paths.fixtures.appendingPathComponent(name)
        let parts = try files.map { try Data(contentsOf: $0) }
        // Each part's name and an FNV-1a digest of its bytes (`hashValue` differs from one process to the next).
        let recipe = zip(files, parts).map { file, bytes in
            let digest = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            return "\(file.lastPathComponent) \(String(digest, radix: 16))"
        }.joined(separator: "\n")
        if isCached(url, recipe: recipe) { return url }
        let tmp = Paths.fixtures.appendingPathComponent(".\(UUID().uuidString).\(url.pathExtension)")
        try Data(parts.joined()).write(to: tmp)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: tmp.path)
        try place(tmp, at: url, recipe: recipe)
        return url
    }
}
