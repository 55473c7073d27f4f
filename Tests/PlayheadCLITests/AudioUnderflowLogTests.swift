import Foundation
import PlayheadTestSupport
import Testing

/// `--log-json`'s `audio-underflow`: the sound server ran out of sound while the player meant to play (silence the
/// listener heard), logged with where it came; not the underflow that every stream's end brings.
@Suite(.serialized) struct AudioUnderflowLogTests {
    /// Plays `tone` on a test sink with `--log-json`, stopping the process (`SIGSTOP`) for `stall` seconds after
    /// `after` seconds when given; returns the logged underflows' positions and the sound the sink recorded.
    func play(_ tone: URL, standingStill stall: (after: Double, seconds: Double)?) throws -> ([Double], [Float]) {
        let sink = try TestSink()
        let folder = Paths.scratch("underflow-log")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("events.jsonl")
        try? FileManager.default.removeItem(at: log)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = [
            "--audio-device=\(sink.name)", "--vo=null", "--no-mpris", "--no-resume", "--log-json=\(log.path)",
            tone.path,
        ]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        if let stall {
            Thread.sleep(forTimeInterval: stall.after)
            kill(p.processIdentifier, SIGSTOP)
            Thread.sleep(forTimeInterval: stall.seconds)
            kill(p.processIdentifier, SIGCONT)
        }
        let deadline = Date().addingTimeInterval(20)
        while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!p.isRunning, "did not end")
        let samples = sink.stopRecording()
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let positions = events.filter { $0["event"] as? String == "audio-underflow" }.compactMap {
            $0["position"] as? Double
        }
        return (positions, samples)
    }

    /// Stopped for a second 1.5 s in, the player writes nothing while the server plays out what it had: the sink
    /// records the silence, and the log has an underflow where it came (from about 1.3 s of sound on).
    @Test func aPlayerThatStoodStillLogsTheSilence() throws {
        let (underflows, samples) = try play(try Fixtures.tone(seconds: 4, frequency: 470), standingStill: (1.5, 1))
        let gap = AudioAnalysis.longestGap(samples)
        #expect(gap > 0.5, "the sink heard no silence: \("longest gap \(AudioAnalysis.longestGap(samples)) s")")
        #expect(!underflows.isEmpty, "no underflow logged; \("longest gap \(AudioAnalysis.longestGap(samples)) s")")
        #expect(underflows.allSatisfy { $0 > 0.5 && $0 < 3 }, "underflows at \(underflows)")
    }

    /// A run left alone plays to its end with no underflow logged: the server's underflow as the last sound plays
    /// (before the drain) is the end, not a gap.
    @Test func aRunToTheEndLogsNone() throws {
        let (underflows, samples) = try play(try Fixtures.tone(seconds: 2, frequency: 470), standingStill: nil)
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 2) < 0.1, "\(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(
            underflows.isEmpty, "underflows at \(underflows); \("longest gap \(AudioAnalysis.longestGap(samples)) s")")
    }
}
