import Foundation

/// A continuous recording split into tracks, for gapless tests: a 4.5 s chirp (200 Hz rising to 1100 Hz, amplitude
/// 0.5, 48 kHz stereo) cut at sample 75 025 and 145 009 (not on any codec's frame boundary; at 512 Hz and 804 Hz),
/// each part encoded on its own so that lossy parts carry their own encoder delay and padding. Each part lasts a
/// whole number of milliseconds within a sample: an MP4's edit list gives its length in milliseconds. Safe from
/// any thread.
/// (`Benchmarks/gapless` cuts a 9 s chirp over the same frequencies, at the same ones, into files of its own.)
public enum GaplessFixtures {
    /// Samples per second of the master.
    public static let sampleRate = 48_000
    /// The sample indices where the master is cut.
    public static let cuts = [75_025, 145_009]
    /// The master's length in samples.
    public static let length = 216_000

    /// The uncut master as 16-bit WAV.
    public static func master() throws -> URL {
        try Fixtures.make(
            "gapless-4.5s-master.wav",
            [
                "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200*t+100*t*t)):s=48000:d=4.5", "-ac", "2",
                "-c:a", "pcm_s16le",
            ])
    }

    /// A chirp of `seconds` (300 Hz rising by 400 Hz a second, amplitude 0.5) as 16-bit WAV: no two stretches
    /// alike, so a recording of it aligns to one place only (a steady tone aligns to every period).
    public static func chirp(seconds: Int) throws -> URL {
        try Fixtures.make(
            "chirp-\(seconds)s.wav",
            [
                "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(300*t+200*t*t)):s=48000:d=\(seconds)", "-ac", "2",
                "-c:a", "pcm_s16le",
            ])
    }

    /// Five minutes of a slow chirp whose pitch tells the position: 200 + 2t Hz at t seconds (MP3, mono), for
    /// resume tests (a recording at 600 Hz is at 200 s).
    public static func positionChirp() throws -> URL {
        try Fixtures.make(
            "position-chirp-300s.mp3",
            [
                "-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*(200*t+t*t)):s=48000:d=300", "-ac", "1",
                "-c:a", "libmp3lame", "-b:a", "64k",
            ])
    }

    /// The three parts in the container `ext`: wav, flac, m4a (AAC), mp3 (LAME with its gapless header), opus.
    public static func parts(_ ext: String) throws -> [URL] {
        let master = try master()
        let bounds = [0] + cuts + [length]
        return try (0..<3).map { i in
            let trim = "atrim=start_sample=\(bounds[i]):end_sample=\(bounds[i + 1]),asetpts=N/SR/TB"
            let wav = try Fixtures.make(
                "gapless-4.5s-part\(i + 1).wav", ["-i", master.path, "-af", trim, "-c:a", "pcm_s16le"])
            if ext == "wav" { return wav }
            let codec: [String]
            switch ext {
            case "flac": codec = ["-c:a", "flac"]
            case "m4a": codec = ["-c:a", "aac", "-b:a", "160k"]
            case "mp3": codec = ["-c:a", "libmp3lame", "-b:a", "192k"]
            case "opus": codec = ["-c:a", "libopus", "-b:a", "128k"]
            default: throw TestSupportError("no gapless parts for .\(ext)")
            }
            return try Fixtures.make("gapless-4.5s-part\(i + 1).\(ext)", ["-i", wav.path] + codec)
        }
    }

    /// The left channel of `url` decoded by the `ffmpeg` command at 48 kHz, as samples in -1...1.
    public static func samples(of url: URL) throws -> [Float] {
        let out = Paths.scratch("pcm").appendingPathComponent("pcm.raw")
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        let r = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-i", url.path, "-af", "pan=mono|c0=c0", "-ar", "48000", "-f", "s16le",
                out.path,
            ])
        guard r.status == 0 else { throw TestSupportError("ffmpeg cannot decode \(url.path): \(r.stderr)") }
        let data = try Data(contentsOf: out)
        return data.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 }
        }
    }

    /// Where `reference` starts inside `recording`: the offset at which `window` samples of the reference, taken
    /// 0.1 s into it, fit best (least squared difference), searched near the recording's first sound. The window
    /// lies past the start because a sound server's monitor can miss the first milliseconds of a new stream (it
    /// rewinds the sink to mix the stream in at once, and a monitor cannot take back what it already delivered;
    /// `paplay` shows the same), which would mislead an alignment on the very first samples.
    public static func align(_ recording: [Float], to reference: [Float], window: Int = 4_800) -> Int? {
        let from = 4_800
        guard let recStart = recording.firstIndex(where: { abs($0) > 0.01 }), reference.count >= from + window
        else { return nil }
        var best: (offset: Int, error: Float)?
        for candidate in max(0, recStart - 2_000)...(recStart + 64) {
            guard candidate + from + window <= recording.count else { continue }
            var error: Float = 0
            for i in from..<(from + window) {
                let d = recording[candidate + i] - reference[i]
                error += d * d
            }
            if best == nil || error < best!.error { best = (candidate, error) }
        }
        return best?.offset
    }

    /// How many of the reference's first samples are missing from the recording at `offset` (heard as silence):
    /// the sound server's monitor start-up loss described at `align`.
    public static func missingStart(_ recording: [Float], _ reference: [Float], offset: Int) -> Int {
        var i = 0
        while i < reference.count, offset + i < recording.count, abs(recording[offset + i]) < 1.0 / 32768,
            abs(reference[i]) >= 1.0 / 32768 || i == 0
        {
            i += 1
        }
        return i
    }

    /// How a recording matches a reference played once, sample for sample.
    public struct Match: Sendable {
        /// Where the reference starts in the recording.
        public var offset: Int
        /// Reference samples at the start that the monitor missed (see `align`).
        public var missingStart: Int
        /// Indices (into the reference) of samples that differ by more than one 16-bit step.
        public var mismatches: [Int]
        /// Whether the 0.1 s after the reference's end are silent in the recording.
        public var silentAfter: Bool
        /// How many samples differ (`mismatches.count`): what a test checks, so that a failure prints a number, not
        /// every index.
        public var differingSamples: Int { mismatches.count }
    }

    /// Compares `recording` with `reference` after aligning them; nil when they cannot be aligned or the
    /// recording ends before the reference does.
    public static func match(_ recording: [Float], _ reference: [Float]) -> Match? {
        guard let offset = align(recording, to: reference), offset + reference.count <= recording.count else {
            return nil
        }
        let missing = missingStart(recording, reference, offset: offset)
        let mismatches = (missing..<reference.count).filter {
            abs(recording[offset + $0] - reference[$0]) > 1.5 / 32768
        }
        let after = recording[(offset + reference.count)...].prefix(4_800)
        return Match(
            offset: offset, missingStart: missing, mismatches: mismatches,
            silentAfter: after.allSatisfy { abs($0) < 0.001 })
    }
}

extension GaplessFixtures.Match: CustomStringConvertible {
    /// A line for a failure message: the alignment, the count and span of differing samples, and the tail's silence.
    public var description: String {
        let differ =
            mismatches.isEmpty
            ? "no sample differs"
            : "\(mismatches.count) samples differ, from \(mismatches[0]) to \(mismatches[mismatches.count - 1])"
        return "offset \(offset), \(missingStart) missing at the start, \(differ), silent after: \(silentAfter)"
    }
}
