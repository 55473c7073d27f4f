import Foundation
import PlayheadTestSupport
import Testing

/// `--alang` and `--aid` choose the sound track of a film with several: what the sound server hears follows them,
/// and a number or tag that cannot be right is refused, or reported, in one line.
@Suite(.serialized) struct TrackOptionsCommandTests {
    /// Plays 1 s of the bilingual fixture (English 440 Hz, French 880 Hz) with `flags`: the frequency heard, the
    /// exit status and stderr.
    func play(_ flags: [String]) throws -> (hertz: Double, status: Int32, stderr: String) {
        let media = try Fixtures.bilingual()
        let sink = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=pulse", "--vo=null", "--audio-device=\(sink.name)", "--length=1", "--really-quiet"] + flags
                + [media.path], timeout: 30)
        return (AudioAnalysis.frequency(sink.stopRecording()), r.status, r.stderr)
    }

    @Test func theMediaChoosesWithoutOptions() throws {
        let (hertz, status, stderr) = try play([])
        #expect(status == 0, "\(stderr)")
        #expect(abs(hertz - 440) < 5, "heard \(hertz) Hz")
    }

    @Test(arguments: [["--alang=fr"], ["--alang=ja,fre"], ["--aid=2"]])
    func theOptionsPickTheFrenchTrack(_ flags: [String]) throws {
        let (hertz, status, stderr) = try play(flags)
        #expect(status == 0, "\(stderr)")
        #expect(abs(hertz - 880) < 5, "\(flags): heard \(hertz) Hz")
    }

    @Test func aTrackNumberTheInputDoesNotHaveIsReportedAndTheDefaultPlays() throws {
        let (hertz, status, stderr) = try play(["--aid=3"])
        #expect(status == 0, "\(stderr)")
        #expect(abs(hertz - 440) < 5, "heard \(hertz) Hz")
        #expect(stderr.contains("--aid=3: the input has 2 sound tracks"), "\(stderr)")
    }

    @Test(arguments: ["--aid=0", "--aid=two", "--aid=", "--alang=1x", "--alang=", "--alang=fr,,en"])
    func badValuesAreUsageErrors(_ flag: String) throws {
        let r = try Run.command(Paths.playheadBinary(), ["--ao=null", flag, "x.mkv"], timeout: 10)
        #expect(r.status == 2, "\(flag): exit \(r.status)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("playhead: --"), "\(flag): \(r.stderr)")
    }
}
