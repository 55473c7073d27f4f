import PlayheadSubtitles
import Testing

@Suite("Cue timeline")
struct CueTimelineTests {
    /// A deterministic generator (SplitMix64), so a failure reproduces.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomCues(count: Int, seed: UInt64) -> [SubtitleCue] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { index in
            // Times on a coarse grid so that starts, ends and query times often coincide.
            let start = Double(Int.random(in: 0...2000, using: &random)) / 4
            let length = Double(Int.random(in: -4...40, using: &random)) / 4
            return SubtitleCue(id: "\(index)", startTime: start, endTime: start + length, text: "")
        }
    }

    @Test("active cues match a brute-force scan", arguments: [1, 2, 17, 500, 2500] as [Int])
    func matchesBruteForce(count: Int) {
        let cues = Self.randomCues(count: count, seed: UInt64(count))
        let timeline = CueTimeline(cues: cues)
        let boundaries = cues.filter { $0.endTime > $0.startTime }.flatMap { [$0.startTime, $0.endTime] }
        var mismatches = 0
        // Every eighth of a second (on and between the quarter-second grid of the times); coarser for the largest
        // input to keep the brute force quick, with a step that still lands on grid points and between them.
        let step = count > 500 ? 0.875 : 0.125
        var time = -1.0
        while time <= 520 {
            let expected = cues.indices.filter { cues[$0].startTime <= time && time < cues[$0].endTime }
            if timeline.activeCueIndices(at: time) != expected { mismatches += 1 }
            if timeline.nextChange(after: time) != boundaries.filter({ $0 > time }).min() { mismatches += 1 }
            time += step
        }
        #expect(mismatches == 0)
    }

    @Test("half-open intervals, empty and reversed cues, order of results")
    func edges() {
        let cues = [
            SubtitleCue(id: "b", startTime: 1, endTime: 3, text: "b"),
            SubtitleCue(id: "a", startTime: 0, endTime: 2, text: "a"),
            SubtitleCue(id: "empty", startTime: 1, endTime: 1, text: ""),
            SubtitleCue(id: "reversed", startTime: 2, endTime: 1, text: ""),
        ]
        let timeline = CueTimeline(cues: cues)
        #expect(timeline.activeCues(at: 0).map(\.id) == ["a"])
        #expect(timeline.activeCues(at: 1).map(\.id) == ["b", "a"])
        #expect(timeline.activeCues(at: 2).map(\.id) == ["b"])
        #expect(timeline.activeCues(at: 3).isEmpty)
        #expect(timeline.nextChange(after: -5) == 0)
        #expect(timeline.nextChange(after: 1) == 2)
        #expect(timeline.nextChange(after: 3) == nil)
        #expect(CueTimeline(cues: []).activeCues(at: 0).isEmpty)
        #expect(CueTimeline(cues: []).nextChange(after: 0) == nil)
    }

    @Test("a cue with an endless end time is active for ever")
    func infiniteEnd() {
        let timeline = CueTimeline(cues: [
            SubtitleCue(startTime: 5, endTime: .infinity, text: ""),
            SubtitleCue(startTime: 1, endTime: 2, text: ""),
        ])
        #expect(timeline.activeCueIndices(at: 1e300) == [0])
        #expect(timeline.activeCueIndices(at: 1.5) == [1])
    }
}
