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

/// `--replaygain` on a chained Ogg file (a recorded radio, songs joined end to end): each song at its own gain,
/// from its first sample (all played at the first song's).
@Suite struct ChainedReplayGainCommandTests {
    /// The loudest sample of each whole second `playhead ARGUMENTS FILE` writes, leaving out its first and last
    /// 50 ms (a join may fall a few samples off the second: the resampler's delay).
    func peaks(_ file: URL, _ arguments: [String], _ name: String) throws -> [Float] {
        let out = Paths.scratch("replaygain-chain").appendingPathComponent("\(name).wav")
        try? FileManager.default.removeItem(at: out)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=wav:\(out.path)", "--untimed", "--no-mpris"] + arguments + [file.path],
            timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let samples = AudioAnalysis.wavSamples(out)
        return stride(from: 0, to: samples.count - 24_000, by: 48_000).map {
            samples[($0 + 2_400)..<min(samples.count, $0 + 45_600)].map(abs).max() ?? 0
        }
    }

    /// Track gains -6.02 dB, -12.04 dB and none: a half, a quarter and all of each song's sound, second by second,
    /// against the same file played without the option. Each link a part of ours (serial numbers of their own),
    /// and the file as FFmpeg reads it (one serial number: its comments change as an Ogg radio's do).
    @Test(arguments: [false, true]) func eachSongAtItsOwnGain(sameSerial: Bool) throws {
        let file = try Fixtures.chainedOggWithReplayGain(sameSerial: sameSerial)
        let name = sameSerial ? "one-serial" : "links"
        let plain = try peaks(file, [], "\(name)-plain")
        let gained = try peaks(file, ["--replaygain=track"], "\(name)-track")
        #expect(plain.count == 12 && gained.count == 12, "\(plain.count) s and \(gained.count) s")
        for (second, (p, g)) in zip(plain, gained).enumerated() {
            let want = Self.expected[second]
            #expect(abs(g / p - want) < 0.02, "second \(second): \(g / p) of the sound, not \(want)")
        }
    }

    /// A seek into the second song (`--start=5`) plays it at its gain, and the third at none.
    @Test func aSeekIntoASongPlaysItAtItsGain() throws {
        let file = try Fixtures.chainedOggWithReplayGain(sameSerial: false)
        let plain = try peaks(file, [], "seek-plain")
        let started = try peaks(file, ["--replaygain=track", "--start=5"], "seek-start")
        #expect(started.count == 7, "\(started.count) s from 5 s")
        for (second, g) in started.enumerated() where second + 5 < plain.count {
            let want = Self.expected[second + 5]
            #expect(abs(g / plain[second + 5] - want) < 0.02, "second \(second + 5): \(g / plain[second + 5])")
        }
    }

    /// Each second's share of the sound: the songs' gains.
    static let expected: [Float] = [0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 1, 1, 1, 1]
}
