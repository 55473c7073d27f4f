import Foundation
import PlayheadTestSupport
import Testing

/// `.` and `,` in a terminal: pause and show the next or the previous picture (25 fps: 40 ms apart).
@Suite struct FrameStepKeyTests {
    @Test func periodAndCommaStepOnePictureWhilePaused() throws {
        let log = Paths.scratch("frame-step-keys").appendingPathComponent("events.jsonl")
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--no-resume",
                "--log-json=\(log.path)", try Fixtures.numberedVideo().path,
            ],
            keys: [(1, "."), (0.7, "."), (0.7, ","), (0.7, "q")], tail: 3, timeout: 40)
        #expect(r.status == 0, "\(r.stdout.suffix(300))")
        let landed = EventLog.seeksLanded(in: try EventLog.read(log))
        #expect(landed.count == 3, "\(landed)")
        guard landed.count == 3 else { return }
        // The first step pauses about a second in, on the picture after the one shown; the next is 40 ms on (the
        // sound's clock did not move meanwhile: paused), and `,` comes back to the first.
        #expect(landed[0] > 0.5 && landed[0] < 2, "\(landed)")
        #expect(abs(landed[1] - landed[0] - 0.04) < 0.002, "\(landed)")
        #expect(abs(landed[2] - landed[0]) < 0.002, "\(landed)")
    }
}
