import Foundation
import PlayheadTestSupport
import Testing

/// The seek keys in a terminal.
@Suite(.serialized) struct SeekKeyTests {
    /// In a video whose keyframes are 10 s apart, → (+5 s) at about 1 s lands 5 s on, to the frame: a keyframe
    /// seek went back to 0, and did every time the key was pressed.
    @Test func theSeekKeysLandWhereTheySay() throws {
        let clip = try Fixtures.make(
            "gop10s.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=30", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=30:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast", "-g",
                "250", "-keyint_min", "250", "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac",
            ])
        let log = Paths.scratch("seek-keys").appendingPathComponent("events.jsonl")
        let r = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", clip.path],
            keys: [(1, "\u{1B}[C"), (1.5, "\u{1B}[C"), (1.5, "q")], tail: 3, timeout: 40)
        #expect(r.status == 0, "\(r.stdout.suffix(300))")
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let seeks = events.filter { $0["event"] as? String == "seek-done" }.compactMap {
            $0["position"] as? Double
        }
        let targets = events.filter { $0["event"] as? String == "seek-started" }.compactMap {
            $0["target"] as? Double
        }
        #expect(seeks.count == 2 && targets.count == 2, "seeks to \(targets), done at \(seeks)")
        for (target, done) in zip(targets, seeks) {
            #expect(abs(done - target) < 0.05, "a seek to \(target) s landed at \(done) s")
        }
        #expect((seeks.last ?? 0) > 10, "two presses from 1 s: \(seeks)")
    }
}
