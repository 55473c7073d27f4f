import Foundation
import PlayheadTestSupport
import Testing

/// `--replaygain`: each file at the loudness its tags give, as written to a WAV file.
@Suite struct ReplayGainCommandTests {
    /// A 1 s 440 Hz tone (peak 0.125) in `ext`, tagged with `tags`.
    func tone(_ name: String, _ ext: String, _ tags: [String: String]) throws -> URL {
        // MP4 keeps tags it does not know only when asked (players meet them as iTunes' freeform atoms, which
        // FFmpeg reads under the same names).
        let codec: [String] =
            ext == "opus"
            ? ["-c:a", "libopus"] : ext == "m4a" ? ["-c:a", "aac", "-movflags", "use_metadata_tags"] : []
        return try Fixtures.make(
            "replaygain-\(name).\(ext)",
            ["-f", "lavfi", "-i", "sine=f=440:d=1:sample_rate=48000"] + codec
                + tags.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] })
    }

    /// The loudest sample `playhead ARGUMENTS FILE` writes.
    func peak(_ file: URL, _ arguments: [String]) throws -> Float {
        let out = Paths.scratch("replaygain").appendingPathComponent("\(file.lastPathComponent).wav")
        try? FileManager.default.removeItem(at: out)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=wav:\(out.path)", "--untimed", "--no-mpris"] + arguments + [file.path],
            timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        return AudioAnalysis.wavSamples(out).map(abs).max() ?? 0
    }

    /// Track gain -6.02 dB and album gain -12.04 dB: track mode halves the sound, album mode quarters it, without
    /// the option nothing changes; in FLAC and MP3 (FFmpeg reads the tags), MP4 and Opus (Playhead reads them;
    /// Opus as R128 Q7.8 toward -23 LUFS: -2821 is -11.02 dB, -6.02 at ReplayGain's -18).
    @Test(arguments: ["flac", "mp3", "m4a", "opus"])
    func trackAndAlbumGains(_ ext: String) throws {
        let tags =
            ext == "opus"
            ? ["R128_TRACK_GAIN": "-2821", "R128_ALBUM_GAIN": "-4362"]
            : ["REPLAYGAIN_TRACK_GAIN": "-6.02 dB", "REPLAYGAIN_ALBUM_GAIN": "-12.04 dB"]
        let file = try tone("gains", ext, tags)
        let plain = try peak(file, [])
        #expect(plain > 0.05, "\(ext): peak \(plain) without --replaygain")
        #expect(try peak(file, ["--replaygain=no"]) == plain)
        let track = try peak(file, ["--replaygain=track"])
        #expect(abs(track / plain - 0.5) < 0.01, "\(ext): track gain left \(track / plain) of the sound")
        let album = try peak(file, ["--replaygain=album"])
        #expect(abs(album / plain - 0.25) < 0.01, "\(ext): album gain left \(album / plain) of the sound")
    }

    /// +12 dB on a track whose peak is 0.5 would clip: the gain stops at 2x (the peak at full scale).
    @Test func aGainThatWouldClipStopsAtThePeak() throws {
        let file = try tone("clip", "flac", ["REPLAYGAIN_TRACK_GAIN": "+12.00 dB", "REPLAYGAIN_TRACK_PEAK": "0.5"])
        let plain = try peak(file, [])
        let loud = try peak(file, ["--replaygain=track"])
        #expect(abs(loud / plain - 2) < 0.02, "the gain gave \(loud / plain)x")
    }

    @Test func aWrongValueIsAUsageError() throws {
        let r = try Run.command(Paths.playheadBinary(), ["--replaygain=loud", "x.flac"], timeout: 10)
        #expect(r.status == 2 && r.stderr.contains("--replaygain"), "\(r.status): \(r.stderr)")
    }
}
