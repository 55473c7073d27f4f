import Foundation
import Observation
import Playhead
import PlayheadTestSupport
import Testing

/// `QueuePlayer` as `AVQueuePlayer` behaves: advancing, edits while playing, `actionAtItemEnd`, and what reaches
/// the sound server (each item's tone, in order, for its whole length).
@MainActor @Suite(.serialized) struct QueuePlayerTests {
    /// Items playing tones of 440, 660 and 880 Hz (`seconds` each), to tell them apart at the sink.
    private func tones(_ seconds: Double = 2) throws -> [PlayerItem] {
        try [440, 660, 880].map { PlayerItem(url: try Fixtures.tone(seconds: seconds, frequency: $0, ext: "wav")) }
    }

    private func queue(on sink: TestSink, _ items: [PlayerItem]) -> QueuePlayer {
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        for item in items { player.insert(item, after: nil) }
        return player
    }

    @Test func playsEveryItemInOrderForTheSumOfTheirDurations() async throws {
        let sink = try TestSink()
        let items = try [0.6, 0.8, 1.0].enumerated().map { i, s in
            PlayerItem(url: try Fixtures.tone(seconds: s, frequency: [440, 660, 880][i], ext: "wav"))
        }
        let player = queue(on: sink, items)
        #expect(player.items().count == 3 && player.currentItem === items[0])
        #expect(player.upNext.count == 2 && player.upNext[0] === items[1])
        var changes = 0
        let events = player.events()
        let watcher = Task { @MainActor in
            for await e in events { if case .currentItemChanged = e.kind { changes += 1 } }
        }
        player.play()
        #expect(await eventually { player.currentItem === items[1] })
        #expect(player.items().count == 2 && player.upNext.count == 1)
        #expect(await eventually(timeout: 10) { player.currentItem == nil })
        try await Task.sleep(for: .milliseconds(200))
        watcher.cancel()
        #expect(changes == 3, "currentItemChanged \(changes) times")
        #expect(player.items().isEmpty)
        let samples = sink.stopRecording()
        let total = items.map { $0.duration.seconds }.reduce(0, +)
        let heard = Double(AudioAnalysis.soundSpan(samples)?.count ?? 0) / 48_000
        #expect(abs(heard - total) < 0.02, "heard \(heard) s of \(total) s")
        #expect(AudioAnalysis.longestGap(samples[AudioAnalysis.soundSpan(samples)!].map { $0 }) < 0.002)
        #expect(AudioAnalysis.toneSequence(samples) == [440, 660, 880])
        player.close()
    }

    @Test func upNextIsObservable() throws {
        let items = try tones()
        let player = QueuePlayer()
        player.audioOutputChoice = .null(untimed: false)
        // A UI showing "up next" is told when the queue changes (onChange runs as the change is made).
        let changed = Locked(false)
        withObservationTracking {
            _ = player.upNext
        } onChange: {
            changed.withLock { $0 = true }
        }
        #expect(!changed.withLock { $0 })
        for item in items { player.insert(item, after: nil) }
        #expect(changed.withLock { $0 }, "inserting did not notify observers of upNext")
        #expect(player.upNext.map(ObjectIdentifier.init) == items.dropFirst().map(ObjectIdentifier.init))
        player.close()
    }

    @Test func aQueuedHLSStreamIsFetchedBeforeItsTurn() async throws {
        // A first stream of 4 s: what is looked at is the second one, fetched while the first plays.
        let first = try HLSFixtures.url(try HLSFixtures.tsLadder("ladder-ts-4s", seconds: 4))
        let second = try HLSFixtures.url(try HLSFixtures.tsLadder("ladder-ts-next"))
        let player = QueuePlayer()
        player.audioOutputChoice = .null(untimed: false)
        let items = [PlayerItem(url: first), PlayerItem(url: second)]
        for item in items { player.insert(item, after: nil) }
        player.play()
        #expect(await eventually(timeout: 20) { player.currentItem === items[1] }, "the queue did not advance")
        // What the second stream's engine fetched while waiting is in its access log from the moment it plays.
        let log = items[1].accessLog
        #expect(log.reduce(0) { $0 + $1.numberOfMediaRequests } >= 1, "nothing fetched ahead: \(log)")
        #expect(items[1].status == .readyToPlay)
        player.close()
    }

    @Test func editsWhilePlaying() async throws {
        let sink = try TestSink()
        let (a, b, c) = try {
            let t = try tones(); return (t[0], t[1], t[2])
        }()
        let player = queue(on: sink, [a, b])
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        // Insert after the current item: it plays next. Remove it again: the one after plays.
        player.insert(c, after: a)
        #expect(player.items().map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        #expect(!player.canInsert(c, after: nil), "an item is in one queue once")
        player.remove(c)
        #expect(player.items().count == 2 && player.upNext.first === b)
        // Remove the current item: the next plays at once.
        try await Task.sleep(for: .milliseconds(500))
        player.remove(a)
        #expect(player.currentItem === b)
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(700))
        // Remove everything: silence, no current item.
        player.removeAllItems()
        #expect(player.currentItem == nil && player.items().isEmpty)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
        try await Task.sleep(for: .milliseconds(500))
        let samples = sink.stopRecording()
        #expect(AudioAnalysis.toneSequence(samples) == [440, 660], "\(AudioAnalysis.toneSequence(samples))")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(heard > 1.0 && heard < 1.5, "heard \(heard) s")
        player.close()
    }

    @Test func advanceToNextItemSkipsAtOnce() async throws {
        let sink = try TestSink()
        let items = try tones()
        let player = queue(on: sink, items)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(600))
        player.advanceToNextItem()
        #expect(player.currentItem === items[1])
        try await Task.sleep(for: .milliseconds(600))
        player.advanceToNextItem()
        #expect(player.currentItem === items[2])
        #expect(await eventually(timeout: 5) { player.currentItem == nil })
        let samples = sink.stopRecording()
        #expect(AudioAnalysis.toneSequence(samples) == [440, 660, 880])
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(heard > 3.0 && heard < 3.5, "heard \(heard) s")
        player.close()
    }

    @Test(arguments: [Player.ActionAtItemEnd.pause, .none])
    func actionAtItemEndKeepsTheItem(action: Player.ActionAtItemEnd) async throws {
        let sink = try TestSink()
        let items = try tones(1)
        let player = queue(on: sink, items)
        player.actionAtItemEnd = action
        let ended = endedFlag(player)
        player.play()
        #expect(await eventually(timeout: 5) { ended.value })
        try await Task.sleep(for: .milliseconds(500))
        #expect(player.currentItem === items[0], "the queue advanced")
        #expect(player.items().count == 3)
        #expect(player.rate == (action == .pause ? 0 : 1))
        #expect(player.currentTime().seconds > 0.95)
        let samples = sink.stopRecording()
        #expect(AudioAnalysis.toneSequence(samples) == [440])
        player.close()
    }

    @Test func looperRepeatsWithoutAGap() async throws {
        let sink = try TestSink()
        let url = try GaplessFixtures.chirp(seconds: 1)
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        let looper = PlayerLooper(player: player, templateItem: PlayerItem(url: url))
        let underflows = PlaybackCounters.audioUnderflows
        player.play()
        #expect(await eventually { looper.status == .ready })
        #expect(await eventually(timeout: 10) { looper.loopCount == 4 })
        looper.disableLooping()
        #expect(looper.status == .cancelled)
        #expect(await eventually(timeout: 5) { player.currentItem == nil })
        #expect(looper.loopCount == 5)
        let samples = sink.stopRecording()
        // Five copies of the chirp, sample for sample, one after the other.
        let one = try GaplessFixtures.samples(of: url)
        let match = try #require(GaplessFixtures.match(samples, Array([[Float]](repeating: one, count: 5).joined())))
        #expect(match.missingStart < 960)
        let dry = "the stream ran dry \(PlaybackCounters.audioUnderflows - underflows) times"
        #expect(
            match.differingSamples == 0,
            "\(match.mismatches.count) samples differ, first at \(match.mismatches.prefix(3)); \(dry)")
        #expect(match.silentAfter, "sound after the fifth loop")
        player.close()
    }

    @Test func looperPlaysATimeRange() async throws {
        let sink = try TestSink()
        let url = try Fixtures.tone(seconds: 3, frequency: 500, ext: "wav")
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        let range = TimeRange(
            start: MediaTime(seconds: 0.5, preferredTimescale: 48_000),
            end: MediaTime(seconds: 1.5, preferredTimescale: 48_000))
        let looper = PlayerLooper(player: player, templateItem: PlayerItem(url: url), timeRange: range)
        let underflows = PlaybackCounters.audioUnderflows
        player.play()
        #expect(await eventually(timeout: 10) { looper.loopCount == 2 })
        looper.disableLooping()
        #expect(await eventually(timeout: 5) { player.currentItem == nil })
        let samples = sink.stopRecording()
        let heard = Double(AudioAnalysis.soundSpan(samples)?.count ?? 0) / 48_000
        let dry = "the stream ran dry \(PlaybackCounters.audioUnderflows - underflows) times"
        #expect(abs(heard - 3) < 0.02, "heard \(heard) s; \(dry)")
        let gap = AudioAnalysis.longestGap(samples[AudioAnalysis.soundSpan(samples)!].map { $0 })
        #expect(gap < 0.002, "a gap of \(gap) s; \(dry)")
        player.close()
    }

    /// A range that starts past the item's end: the looper fails, says why, and stops (it went round about 220
    /// times a second on a full core, posting an end each time).
    @Test func looperOverARangePastTheEndFails() async throws {
        let player = QueuePlayer()
        player.audioOutputChoice = .null(untimed: false)
        let range = TimeRange(
            start: MediaTime(seconds: 10, preferredTimescale: 600),
            end: MediaTime(seconds: 12, preferredTimescale: 600))
        let item = PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav"))
        let looper = PlayerLooper(player: player, templateItem: item, timeRange: range)
        player.play()
        #expect(await eventually(timeout: 5) { looper.status == .failed }, "status \(looper.status)")
        #expect(looper.error?.reason.contains("past the item's end") == true, "\(String(describing: looper.error))")
        try await Task.sleep(for: .milliseconds(500))
        #expect(looper.loopCount <= 2, "looped \(looper.loopCount) times")
        #expect(player.items().isEmpty || player.rate == 0, "still going: \(player.items().count) items")
        player.close()
    }
}
