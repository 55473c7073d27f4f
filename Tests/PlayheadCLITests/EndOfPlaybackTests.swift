import Foundation
import PlayheadTestSupport
import Testing

/// Playback always ends: the position reaches the end, the player stops saying "Playing", the queue moves on and
/// the command exits.
@Suite(.serialized) struct EndOfPlaybackTests {
    /// Video with no sound track, in the three containers users meet it in: the pictures follow the monotonic
    /// clock (there is no sound to follow) and the item ends after its duration.
    @Test(arguments: [
        ("vo.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"]), ("vo.webm", ["-c:v", "libvpx", "-b:v", "200k"]),
        ("vo.mpg", ["-c:v", "mpeg2video", "-f", "vob"]),
    ])
    func videoWithoutSoundEnds(name: String, codec: [String]) throws {
        let clip = try Fixtures.make(name, ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=3"] + codec)
        let log = Paths.scratch("video-only").appendingPathComponent("\(name).jsonl")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--log-json=\(log.path)", clip.path, clip.path],
            timeout: 20)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        // Two plays of 3 s each, in real time: not sooner (the pictures were paced), not much later.
        #expect(r.seconds > 5.5 && r.seconds < 10, "took \(r.seconds) s")
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.components(separatedBy: "\"event\":\"ended\"").count - 1 == 2, "\(events)")
    }
}
