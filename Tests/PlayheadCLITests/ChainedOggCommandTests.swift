import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` on a local chained Ogg file (three 4 s songs joined end to end), written to a WAV file untimed.
@Suite struct ChainedOggCommandTests {
    /// Plays `arguments` into a WAV file; returns its samples.
    func render(_ arguments: [String], _ name: String) throws -> [Float] {
        let out = Paths.scratch("chained-ogg").appendingPathComponent("\(name).wav")
        try? FileManager.default.removeItem(at: out)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=wav:\(out.path)", "--vo=null", "--untimed", "--no-mpris"] + arguments,
            timeout: 30)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        return AudioAnalysis.wavSamples(out)
    }

    /// The songs' samples, no more: each song decoded as the stream of its own it is (its decoder went on from
    /// the song before, whose last block the next one's first overlapped: 12.026 s, 13 ms more at each join).
    @Test func playsEachSongWholeAndNoMore() throws {
        let samples = try render([try Fixtures.chainedOgg().path], "whole")
        #expect(abs(samples.count - 12 * 48_000) <= 2, "\(Double(samples.count) / 48_000) s")
        #expect(AudioAnalysis.toneSequence(samples) == [440, 550, 660], "\(AudioAnalysis.toneSequence(samples))")
    }

    /// `--start=9` starts in the third song (it was "past its end (00:04)": the first song's length).
    @Test func startsInTheThirdSong() throws {
        let samples = try render(["--start=9", try Fixtures.chainedOgg().path], "start")
        #expect(abs(Double(samples.count) / 48_000 - 3) < 0.02, "\(Double(samples.count) / 48_000) s")
        #expect(abs(AudioAnalysis.frequency(samples) - 660) < 4, "\(AudioAnalysis.frequency(samples)) Hz")
    }

    /// A song joined to itself, which FFmpeg reads as one stream (its chains found from the time stamps that start
    /// again, as for an Ogg radio): the second song's first block is decoded afresh too (the decoder had gone on,
    /// and the priming block's 2.9 ms were heard at the join: 8.003 s).
    @Test func aSongJoinedToItselfPlaysTwiceItsLength() throws {
        let twice = Paths.scratch("chained-ogg").appendingPathComponent("twice.ogg")
        try FileManager.default.createDirectory(
            at: twice.deletingLastPathComponent(), withIntermediateDirectories: true)
        let song = try Data(contentsOf: try Fixtures.oggSongs()[0])
        try (song + song).write(to: twice)
        let samples = try render([twice.path], "twice")
        #expect(abs(samples.count - 8 * 48_000) <= 2, "\(Double(samples.count) / 48_000) s")
    }

    /// A chain whose second song was cut inside its header pages, the third whole after it (a recording that lost
    /// bytes): the first and third songs play, 8 s (FFmpeg, and the walk of the pages before it went on past a cut
    /// page, stopped after the first).
    @Test func aSongCutShortInTheMiddleIsLeftOut() throws {
        let songs = try Fixtures.oggSongs().map { try Data(contentsOf: $0) }
        let damaged = Paths.scratch("chained-ogg").appendingPathComponent("damaged.ogg")
        try FileManager.default.createDirectory(
            at: damaged.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (songs[0] + songs[1].prefix(1600) + songs[2]).write(to: damaged)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: damaged.path)
        let samples = try render([damaged.path], "damaged")
        #expect(abs(Double(samples.count) / 48_000 - 8) < 0.01, "\(Double(samples.count) / 48_000) s")
        #expect(AudioAnalysis.toneSequence(samples) == [440, 660], "\(AudioAnalysis.toneSequence(samples))")
    }

    /// A 48 kHz stereo song after the 44.1 kHz mono one under the same serial number (read by FFmpeg as one stream,
    /// its setup passed in band): the second keeps its pitch, the decoder flushed at the join, not opened again from
    /// the first song's setup (that played it at 1162 Hz for 1000).
    @Test func aSongCodedOtherwiseUnderTheSameSerialKeepsItsPitch() throws {
        let other = try Fixtures.make(
            "chain-song-D-serial-101.ogg",
            [
                "-f", "lavfi", "-i", "sine=f=1000:d=3:sample_rate=48000", "-ac", "2", "-c:a", "libvorbis",
                "-serial_offset", "101",
            ])
        let joined = Paths.scratch("chained-ogg").appendingPathComponent("same-serial.ogg")
        try FileManager.default.createDirectory(
            at: joined.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (try Data(contentsOf: try Fixtures.oggSongs()[0]) + Data(contentsOf: other)).write(to: joined)
        let samples = try render([joined.path], "same-serial")
        #expect(AudioAnalysis.toneSequence(samples) == [440, 1000], "\(AudioAnalysis.toneSequence(samples))")
    }
}
