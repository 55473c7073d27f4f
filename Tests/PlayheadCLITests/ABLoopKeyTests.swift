import Foundation
import PlayheadTestSupport
import Testing

/// The key l: A, then B (the part between plays again and again), then off.
@Suite struct ABLoopKeyTests {
    @Test func thePartBetweenAAndBPlaysUntilTheLoopIsOff() throws {
        let log = Paths.scratch("ab-loop").appendingPathComponent("events.jsonl")
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--no-resume",
                "--log-json=\(log.path)", try Fixtures.tone(seconds: 20).path,
            ],
            keys: [(1, "l"), (1, "l"), (3.3, "l"), (2, "q")], tail: 3, timeout: 40)
        #expect(r.status == 0, "\(r.stdout.suffix(300))")
        #expect(r.stdout.contains("A-B loop off"), "\(r.stdout.suffix(300))")
        let seeks = EventLog.named("seek-done", in: try EventLog.read(log))
        let positions = seeks.compactMap { $0["position"] as? Double }
        let times = seeks.compactMap { $0["time"] as? Double }
        // B is set about a second after A: back to A at once, then each time B is reached (about a second), three
        // or four times in the 3.3 s before l ends it; none after (2 s more played on).
        #expect(positions.count >= 3 && positions.count <= 5, "seeks to \(positions) at \(times)")
        #expect(positions.allSatisfy { abs($0 - positions[0]) < 0.01 && $0 > 0.5 && $0 < 2 }, "\(positions)")
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier > 0.7 && later - earlier < 1.5, "seeks at \(times)")
        }
        #expect(times.last.map { $0 < (times.first ?? 0) + 4 } ?? false, "looped on after l: \(times)")
    }
}
