import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A player shows its items' pictures on one video thread and their subtitles on one text thread, for its whole life:
/// a queue's next item, opened and read ahead while the current one plays, adds no presentation thread of its own,
/// and the same threads go on with it at the join. Its joins are watched by its playback loop: a period is only its
/// loader and decoders.
@MainActor @Suite(.serialized) struct PresenterThreadTests {
    /// The threads named `name` this process has now (`/proc/self/task`), by id.
    nonisolated static func threads(named name: String) -> Set<Int> {
        Set(ThreadActivity.sample().filter { $0.value.name == name }.keys)
    }

    /// Samples the threads named `name` that were not there at the start, every 20 ms, until `done` holds (at most
    /// `timeout` seconds): every such thread seen, and the most seen at once.
    static func watchThreads(
        named name: String, timeout: Double, until done: () -> Bool
    ) async throws -> (seen: Set<Int>, most: Int, done: Bool) {
        let before = threads(named: name)
        var seen = Set<Int>()
        var most = 0
        let start = MonotonicClock.now()
        while MonotonicClock.now() - start < timeout {
            let now = threads(named: name).subtracting(before)
            seen.formUnion(now)
            most = max(most, now.count)
            if done() { return (seen, most, true) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (seen, most, false)
    }

    @Test func aQueueShowsEveryItemsPicturesOnOneVideoThread() async throws {
        let video = try Fixtures.numberedVideo()
        let sink = try TestSink()
        let first = PlayerItem(url: video)
        first.seek(to: MediaTime(seconds: 8, preferredTimescale: 1000))
        let player = QueuePlayer(items: [first, PlayerItem(url: video)])
        player.audioOutputChoice = .pulse(device: sink.name)
        let layer = VideoOutputAttachTests.numberedOutput()
        player.add(layer)
        player.play()
        // Until the next item's pictures have been shown for a second (its numbers fall back and reach 25).
        let watched = try await Self.watchThreads(named: "playhead.video", timeout: 10) {
            let values = layer.frames.map(\.value)
            guard let drop = values.indices.first(where: { $0 > 0 && values[$0] < values[$0 - 1] }) else {
                return false
            }
            return values[drop...].contains { $0 >= 25 && $0 < 50 }
        }
        player.close()
        _ = sink.stopRecording()
        #expect(watched.done, "the next item's pictures never came: \(layer.frames.map(\.value).suffix(20))")
        #expect(watched.seen.count == 1, "video threads seen: \(watched.seen)")
        #expect(watched.most == 1, "at most one video thread at once, not \(watched.most)")
    }

    @Test func aQueueShowsEveryItemsSubtitlesOnOneTextThread() async throws {
        let media = try Fixtures.subtitled(container: "mkv", codec: "srt", timeScale: 0.5)
        let sink = try TestSink()
        let (first, second) = (PlayerItem(url: media), PlayerItem(url: media))
        let player = QueuePlayer(items: [first, second])
        player.audioOutputChoice = .pulse(device: sink.name)
        let (shownFirst, shownSecond) = (CaptureLegibleOutput(player), CaptureLegibleOutput(player))
        first.add(shownFirst)
        second.add(shownSecond)
        player.play()
        // Until the second item's last cue ("Three", 2 s into it) has shown.
        let watched = try await Self.watchThreads(named: "playhead.text", timeout: 12) {
            shownSecond.all.contains { $0.texts == ["Three"] }
        }
        player.close()
        _ = sink.stopRecording()
        #expect(watched.done, "the second item's cues: \(shownSecond.all.map(\.texts))")
        #expect(
            shownFirst.all.contains { $0.texts == ["Three"] }, "the first item's cues: \(shownFirst.all.map(\.texts))")
        #expect(watched.seen.count == 1, "text threads seen: \(watched.seen)")
        #expect(watched.most == 1, "at most one text thread at once, not \(watched.most)")
    }

    /// The threads started during a gapless queue of three items: the player's loop and sound (one each), and one
    /// demux thread (loading and decoding) per item; nothing lives only around a join (before, each join had a
    /// thread of its own waiting for the boundary to be heard).
    @Test func aQueueJoinsItsItemsWithoutAThreadOfItsOwn() async throws {
        let sink = try TestSink()
        let parts = try GaplessFixtures.parts("wav")
        let before = Set(ThreadActivity.sample().keys)
        // The output is chosen before the queue has items: a choice made after the first item opened opens it
        // again on the new output, with a demux and a sound thread of its own (not what this test counts).
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        for part in parts { player.insert(PlayerItem(url: part), after: nil) }
        var seen: [Int: String] = [:]
        var changes = 0
        var shown = player.currentItem
        player.play()
        let start = MonotonicClock.now()
        while player.currentItem != nil, MonotonicClock.now() - start < 20 {
            for (id, thread) in ThreadActivity.sample() where !before.contains(id) { seen[id] = thread.name }
            if player.currentItem !== shown {
                changes += 1
                shown = player.currentItem
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let finished = player.currentItem == nil
        player.close()
        _ = sink.stopRecording()
        #expect(finished && changes == parts.count - 1, "the queue moved on \(changes) times, finished: \(finished)")
        var byName: [String: Int] = [:]
        for name in seen.values where name.hasPrefix("playhead.") { byName[name, default: 0] += 1 }
        #expect(byName == ["playhead.loop": 1, "playhead.audio": 1, "playhead.demux": parts.count], "\(byName)")
    }
}
