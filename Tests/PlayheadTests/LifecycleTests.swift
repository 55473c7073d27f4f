import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A player's life as an app lives it: nothing it does blocks the main actor, and one that nobody holds any more
/// stops at once, taking its threads and its sound server stream with it.
@MainActor @Suite(.serialized) struct LifecycleTests {
    @Test func theMainActorIsNeverBlocked() async throws {
        let sink = try TestSink()
        // Fixtures first: making one runs ffmpeg on the main actor.
        let (video, tone, other) = (
            try Fixtures.numberedVideo(), try Fixtures.tone(seconds: 3), try Fixtures.tone(seconds: 2, frequency: 880)
        )
        let probe = MainActorProbe()
        let player = QueuePlayer(items: [PlayerItem(url: video), PlayerItem(url: tone)])
        player.audioOutputChoice = .pulse(device: sink.name)
        probe.phase = "first play"
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        probe.phase = "seeks"
        for target in [7.0, 2.0, 9.5] {
            _ = await player.seek(to: MediaTime(seconds: target, preferredTimescale: 600))
            try await Task.sleep(for: .milliseconds(300))
        }
        probe.phase = "pause"
        player.pause()
        try await Task.sleep(for: .milliseconds(300))
        probe.phase = "advance"
        player.play()
        player.advanceToNextItem()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        probe.phase = "replace"
        player.replaceCurrentItem(with: PlayerItem(url: other))
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(300))
        probe.phase = "close"
        player.close()
        try await Task.sleep(for: .milliseconds(300))
        probe.stop()
        #expect(probe.worst < 0.020, "the main actor was held \(probe.report)")
    }
}

extension LifecycleTests {
    /// How many sink inputs (playback streams) the test sink has now.
    nonisolated static func streams(on sink: TestSink) throws -> Int { try streamIDs(on: sink).count }

    /// This process's threads named by Playhead's engines (and FFmpeg's decoder threads they started), by id.
    nonisolated static func engineThreads() -> Set<Int> {
        Set(ThreadActivity.sample().filter { $0.value.name.hasPrefix("playhead.") }.keys)
    }

    @Test func aPlayerNobodyHoldsStops() async throws {
        let sink = try TestSink()
        let tone = try Fixtures.tone(seconds: 30)
        let threadsBefore = Self.engineThreads()
        var player: Player? = Player.onSink(sink)
        weak let dropped = player
        let fired = Locked(0)
        _ = player?.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 20), queue: .global()) { _ in
            fired.withLock { $0 += 1 }
        }
        player?.replaceCurrentItem(with: PlayerItem(url: tone))
        player?.play()
        #expect(await eventually { player?.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        #expect(try Self.streams(on: sink) == 1)
        let threads = Self.engineThreads().subtracting(threadsBefore)
        #expect(threads.count >= 2, "the engine's threads: \(threads)")

        player = nil
        let start = MonotonicClock.now()
        #expect(await eventually(timeout: 1) { dropped == nil }, "something still holds the player")
        var streams = try Self.streams(on: sink)
        while streams > 0 && MonotonicClock.now() - start < 1 {
            try await Task.sleep(for: .milliseconds(50))
            streams = try Self.streams(on: sink)
        }
        #expect(streams == 0, "the stream is still on the server \(MonotonicClock.now() - start) s after")
        let left = { Self.engineThreads().intersection(threads) }
        #expect(await eventually(timeout: 1) { left().isEmpty }, "threads still running: \(left())")
        let firedThen = fired.current
        try await Task.sleep(for: .milliseconds(300))
        #expect(fired.current == firedThen, "a time observer of the dropped player still fires")
        _ = sink.stopRecording()
    }
}

extension LifecycleTests {
    /// A program about to exit waits for the threads of the players it closed: when the wait says none runs, no
    /// thread of the closed player is left. The player here waits for a playlist that trickles in a line a second,
    /// so its demux thread takes a while (up to a tenth of a second) to notice the close and end.
    @Test func afterCloseTheWaitEndsWhenThePlayersThreadsHaveEnded() async throws {
        let sink = try TestSink()
        let dir = try HLSFixtures.badInputs()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
            .write(to: dir.appendingPathComponent("trickle.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let threadsBefore = Self.engineThreads()
        let player = Player.onSink(sink)
        player.replaceCurrentItem(with: PlayerItem(url: origin.url("bad/trickle.m3u8", ["trickle": "1"])))
        player.play()
        #expect(await eventually { !origin.requests.isEmpty }, "the playlist was never asked for")
        try await Task.sleep(for: .milliseconds(300))
        let threads = Self.engineThreads().subtracting(threadsBefore)
        #expect(!threads.isEmpty, "the player's threads: \(threads)")
        player.close()
        #expect(await Player.waitForPlaybackThreads(upTo: 5), "threads still running 5 s after close")
        let left = Self.engineThreads().intersection(threads)
        #expect(left.isEmpty, "the wait ended with threads still running: \(left)")
        _ = sink.stopRecording()
    }
}

extension LifecycleTests {
    /// The indices of the sink inputs (playback streams) on the test sink now.
    nonisolated static func streamIDs(on sink: TestSink) throws -> [String] {
        let sinks = try Run.command("pactl", ["list", "short", "sinks"]).stdout.split(separator: "\n")
        guard
            let index = sinks.first(where: { $0.split(separator: "\t").dropFirst().first == Substring(sink.name) })?
                .split(separator: "\t").first
        else { throw TestSupportError("sink \(sink.name) is not on the server") }
        let inputs = try Run.command("pactl", ["list", "short", "sink-inputs"]).stdout.split(separator: "\n")
        return inputs.filter { $0.split(separator: "\t").dropFirst().first == index }.map {
            String($0.split(separator: "\t")[0])
        }
    }

    /// Rule 2: one player, items swapped with `replaceCurrentItem`: the same sound server stream plays them all,
    /// as the server sees it (one sink input, the same one, from the first item to the last).
    @Test func replacingItemsKeepsTheSoundServerStream() async throws {
        let sink = try TestSink()
        let tones = [
            try Fixtures.tone(seconds: 3), try Fixtures.tone(seconds: 3, frequency: 880),
            try Fixtures.tone(seconds: 2, frequency: 660),
        ]
        let player = Player.onSink(sink)
        var seen: [[String]] = []
        for tone in tones {
            player.replaceCurrentItem(with: PlayerItem(url: tone))
            player.play()
            #expect(await eventually { player.timeControlStatus == .playing })
            try await Task.sleep(for: .milliseconds(400))
            seen.append(try Self.streamIDs(on: sink))
        }
        #expect(seen.allSatisfy { $0.count == 1 } && Set(seen.map { $0.first }).count == 1, "sink inputs: \(seen)")
        player.close()
        _ = sink.stopRecording()
    }

    /// Rule 6: a removed boundary observer never fires, while one left in place does.
    @Test func aRemovedBoundaryObserverNeverFires() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let (kept, removed) = (Locked(0), Locked(0))
        let times = [
            MediaTime(seconds: 0.6, preferredTimescale: 600), MediaTime(seconds: 1.2, preferredTimescale: 600),
        ]
        let keep = player.addBoundaryTimeObserver(forTimes: times, queue: .global()) { kept.withLock { $0 += 1 } }
        let drop = player.addBoundaryTimeObserver(forTimes: times, queue: .global()) { removed.withLock { $0 += 1 } }
        player.removeTimeObserver(drop)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 3)))
        player.play()
        #expect(await eventually(timeout: 5) { kept.current == 2 }, "the kept observer fired \(kept.current) times")
        #expect(removed.current == 0, "the removed observer fired \(removed.current) times")
        player.removeTimeObserver(keep)
        player.close()
    }
}
