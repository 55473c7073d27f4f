import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A continuous recording split into three tracks plays back continuous: what reaches the sound server is the
/// master, sample for sample (lossless) or without gaps, clicks and phase jumps (lossy).
@MainActor @Suite(.serialized) struct GaplessTests {
    /// Plays `urls` as a queue on a fresh sink and returns what the sink heard, and a note of how many times the
    /// player's stream ran dry meanwhile (one at the very end is expected), for the messages.
    private func playQueue(_ urls: [URL]) async throws -> (recording: [Float], player: QueuePlayer, dry: String) {
        let sink = try TestSink()
        let underflows = PlaybackCounters.audioUnderflows
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        for url in urls { player.insert(PlayerItem(url: url), after: nil) }
        player.play()
        #expect(await eventually(timeout: 20) { player.currentItem == nil }, "the queue did not finish")
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        let dry = "the stream ran dry \(PlaybackCounters.audioUnderflows - underflows) times"
        return (sink.stopRecording(), player, dry)
    }

    @Test(arguments: ["wav", "flac"]) func losslessIsSampleExact(ext: String) async throws {
        let master = try GaplessFixtures.samples(of: GaplessFixtures.master())
        let (recording, _, dry) = try await playQueue(try GaplessFixtures.parts(ext))
        let match = try #require(GaplessFixtures.match(recording, master), "the master is not in the recording; \(dry)")
        // The monitor may miss the stream's first milliseconds (see `GaplessFixtures.align`); the joins, at 1.6 s
        // and 3.0 s, are far beyond.
        #expect(match.missingStart < 960, "the first \(match.missingStart) samples were not heard")
        #expect(
            match.differingSamples == 0,
            "\(match.mismatches.count) samples differ, first at \(match.mismatches.prefix(5)); \(dry)")
        #expect(match.silentAfter, "sound after the end")
    }

    @Test func networkItemsAreGaplessToo() async throws {
        // The parts served by nginx: the next item is fetched while the current one plays.
        let root = try HLSFixtures.root().appendingPathComponent("gapless-4.5s")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var urls: [URL] = []
        for (i, part) in try GaplessFixtures.parts("flac").enumerated() {
            let served = root.appendingPathComponent("part\(i + 1).flac")
            if !FileManager.default.fileExists(atPath: served.path) {
                try FileManager.default.copyItem(at: part, to: served)
            }
            urls.append(try HLSFixtures.url("gapless-4.5s/part\(i + 1).flac"))
        }
        let master = try GaplessFixtures.samples(of: GaplessFixtures.master())
        let (recording, _, dry) = try await playQueue(urls)
        let match = try #require(GaplessFixtures.match(recording, master), "the master is not in the recording; \(dry)")
        #expect(match.missingStart < 960)
        #expect(
            match.differingSamples == 0,
            "\(match.mismatches.count) samples differ, first at \(match.mismatches.prefix(5)); \(dry)")
        #expect(match.silentAfter)
    }

    @Test func positionSwitchesItemAtTheJoin() async throws {
        let sink = try TestSink()
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        let items = try GaplessFixtures.parts("wav").prefix(2).map { PlayerItem(url: $0) }
        for item in items { player.insert(item, after: nil) }
        player.play()
        // Sample (item, time) every 2 ms across the join.
        var readings: [(Int, Double)] = []
        while player.currentItem != nil, readings.count < 5_000 {
            let index = player.currentItem === items[0] ? 0 : 1
            readings.append((index, player.currentTime().seconds))
            try await Task.sleep(for: .milliseconds(2))
        }
        player.close()
        let firstLength = Double(GaplessFixtures.cuts[0]) / 48_000
        let switchAt = try #require(readings.firstIndex { $0.0 == 1 }, "the queue never moved on")
        let before = readings[..<switchAt].map(\.1)
        let after = readings[switchAt...].map(\.1)
        // Time never runs backwards within an item, reaches the first item's end, and starts the next at zero.
        #expect(zip(before, before.dropFirst()).allSatisfy { $0 <= $1 + 0.001 })
        #expect(zip(after, after.dropFirst()).allSatisfy { $0 <= $1 + 0.001 })
        #expect(abs(before.last! - firstLength) < 0.03, "the first item's time stopped at \(before.last!)")
        #expect(after.first! < 0.03, "the second item started at \(after.first!)")
    }

    @Test(arguments: [("m4a", 1024), ("mp3", 1152), ("opus", 960)])
    func lossyHasNoGapOrClick(ext: String, frame: Int) async throws {
        let master = try GaplessFixtures.samples(of: GaplessFixtures.master())
        let (recording, _, dry) = try await playQueue(try GaplessFixtures.parts(ext))
        let offset = try #require(GaplessFixtures.align(recording, to: master))
        try #require(offset + master.count <= recording.count + frame, "the recording is too short")
        let heard = Array(recording[offset..<min(recording.count, offset + master.count + 4 * frame)])
        // No inserted silence: the longest gap in a 200 Hz+ chirp is its zero crossings.
        let gap = AudioAnalysis.longestGap(heard, threshold: 0.01)
        #expect(gap < Double(frame) / 48_000, "a gap of \(gap) s; \(dry)")
        // The sound lasts as long as the master, within one codec frame.
        let span = AudioAnalysis.soundSpan(heard, threshold: 0.01)
        let length = span.map { $0.upperBound - $0.lowerBound } ?? 0
        #expect(abs(length - master.count) < frame, "heard \(length) samples of \(master.count); \(dry)")
        // No click or phase jump: the difference to the master stays at the codec's noise level everywhere,
        // joins included (RMS per millisecond). Measured noise: AAC 160k 0.021-0.040, MP3 192k 0.016, Opus 0.011.
        // A click of 0.1 full scale, or a phase jump of 2 samples at the joins' 500-800 Hz (0.047-0.07 RMS),
        // exceeds 0.05.
        let missing = GaplessFixtures.missingStart(recording, master, offset: offset)
        #expect(missing < 960, "the first \(missing) samples were not heard")
        let worst = Self.worstWindowError(heard, master, from: missing + 48)
        let atJoins = GaplessFixtures.cuts.map { Self.worstWindowError(heard, master, around: $0) }
        #expect(worst.rms < 0.05, "error \(worst.rms) at sample \(worst.at); at the joins \(atJoins)")
    }

    /// The largest RMS difference over 48-sample windows from `from` on (or within 2400 samples of `around`).
    static func worstWindowError(_ heard: [Float], _ master: [Float], from: Int = 0, around: Int? = nil) -> (
        rms: Float, at: Int
    ) {
        let n = min(heard.count, master.count)
        let range = around.map { max(0, $0 - 2_400)..<min(n - 48, $0 + 2_400) } ?? from..<(n - 48)
        var worst: (Float, Int) = (0, 0)
        for start in stride(from: range.lowerBound, to: range.upperBound, by: 24) {
            var sum: Float = 0
            for i in start..<(start + 48) {
                let d = heard[i] - master[i]
                sum += d * d
            }
            let rms = (sum / 48).squareRoot()
            if rms > worst.0 { worst = (rms, start) }
        }
        return worst
    }
}
