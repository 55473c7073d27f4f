import Foundation
import Playhead
import PlayheadSubtitles
import PlayheadTestSupport
import Testing

/// What a subtitle output was told: the plain text of each cue, the media time the engine gave, and the
/// player's own position when the call came (what the listener hears then).
final class CaptureLegibleOutput: LegibleOutput, @unchecked Sendable {
    struct Change {
        var texts: [String]
        var time: Double
        var heard: Double
    }

    private let changes = Locked([Change]())
    private let timebase: Timebase

    init(_ player: Player) { timebase = player.timebase }

    func show(_ cues: [SubtitleCue], at time: MediaTime) {
        let change = Change(texts: cues.map(\.parsedText.plainText), time: time.seconds, heard: timebase.time.seconds)
        changes.withLock { $0.append(change) }
    }

    var all: [Change] { changes.current }

    /// What an output was told while `media` played to its end on a test sink, its item set up by `prepare`.
    @MainActor static func played(_ media: URL, prepare: (PlayerItem) -> Void = { _ in }) async throws
        -> CaptureLegibleOutput
    {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: media)
        prepare(item)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { ended.value }, "the item did not play to its end")
        player.close()
        _ = sink.stopRecording()
        return output
    }
}

/// The subtitle track of local media reaches the item's legible outputs: each cue shows while the sound of its
/// time plays and clears at its end, whatever the container and text format; an output attached while paused
/// gets what shows at once; a seek shows the cues of its target.
@MainActor @Suite(.serialized) struct SubtitleOutputTests {
    nonisolated static let formats = [("mkv", "srt"), ("mkv", "webvtt"), ("mkv", "ass"), ("mp4", "mov_text")]

    /// At half the fixtures' times (3 s of media, cues from 0.5 s to 2.5 s): when each change comes is what is
    /// looked at, not how long the media lasts.
    @Test(arguments: formats) func cuesShowAndClearAtTheirTimes(container: String, codec: String) async throws {
        let media = try Fixtures.subtitled(container: container, codec: codec, timeScale: 0.5)
        let changes = try await CaptureLegibleOutput.played(media).all
        let expected = Fixtures.subtitleCues(timeScale: 0.5).flatMap { cue in
            [
                (
                    cue.start,
                    [cue.text.replacingOccurrences(of: "<i>", with: "").replacingOccurrences(of: "</i>", with: "")]
                ), (cue.end, []),
            ]
        }
        #expect(
            changes.map(\.texts) == expected.map(\.1),
            "\(codec) in \(container): the outputs were told \(changes.map(\.texts))")
        for (change, (boundary, _)) in zip(changes, expected) {
            // Matroska shifts every stream by the AAC priming (21 ms); a cue's change may come at most a frame of
            // video (40 ms) after its time, never before it.
            #expect(
                change.heard >= boundary - 0.01 && change.heard <= boundary + 0.07,
                "\(codec): \(change.texts) shown when \(change.heard) s was heard, due at \(boundary) s")
            #expect(abs(change.time - change.heard) < 0.03, "\(codec): told \(change.time) s at \(change.heard) s")
        }
    }

    @Test func anOutputAttachedWhilePausedGetsTheCuesAtOnceAndASeekShowsItsTarget() async throws {
        let media = try Fixtures.subtitled(container: "mkv", codec: "srt")
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: media)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(
            await player.seek(
                to: MediaTime(seconds: 2.8, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero))
        let early = CaptureLegibleOutput(player)
        item.add(early)
        #expect(await eventually { !early.all.isEmpty }, "the cue at the seek's target was not shown")
        #expect(early.all.map(\.texts) == [["Two\nlines"]])

        // Paused: a new output gets the cue showing at once, on the attaching thread, and nothing more.
        for round in 0..<20 {
            let late = CaptureLegibleOutput(player)
            item.add(late)
            #expect(late.all.map(\.texts) == [["Two\nlines"]], "round \(round): \(late.all.map(\.texts))")
            item.remove(late)
        }
        try await Task.sleep(for: .milliseconds(800))
        #expect(early.all.count == 1, "told \(early.all.map(\.texts)) while paused")

        // A seek shows the cues of its target: clear between cues, then the third.
        #expect(
            await player.seek(
                to: MediaTime(seconds: 3.8, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await eventually(timeout: 2) { early.all.last?.texts == [] })
        #expect(
            await player.seek(
                to: MediaTime(seconds: 4.5, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await eventually(timeout: 2) { early.all.last?.texts == ["Three"] })
        item.remove(early)
        let told = early.all.count
        player.play()
        try await Task.sleep(for: .milliseconds(800))
        #expect(early.all.count == told, "a removed output was told \(early.all.suffix(from: told).map(\.texts))")
        player.close()
        _ = sink.stopRecording()
    }

    /// A player on `sink` whose current item is subtitled Matroska (SubRip), told to `output`.
    static func subtitledPlayer(_ sink: TestSink) throws -> (Player, PlayerItem, CaptureLegibleOutput) {
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try Fixtures.subtitled(container: "mkv", codec: "srt"))
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        return (player, item, output)
    }

    @Test func theTextThreadWakesForChangesOnlyAndSleepsWhilePaused() async throws {
        let sink = try TestSink()
        let (player, _, output) = try Self.subtitledPlayer(sink)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(300))
        player.pause()
        try await Task.sleep(for: .seconds(1))
        var before = ThreadActivity.sample()
        try await Task.sleep(for: .seconds(5))
        var activity = ThreadActivity.difference(before, ThreadActivity.sample())
        let paused = activity.filter { $0.thread.hasPrefix("playhead.text#") }
        #expect(paused.count == 1, "no text thread: \(ThreadActivity.describe(activity))")
        #expect(paused.allSatisfy { $0.wakeups <= 2 }, "paused: \(ThreadActivity.describe(paused))")

        // Playing the remaining 5.7 s: six changes of the cues shown, each woken for once or twice (early by the
        // clock's start, a new cue read), never on a timer.
        let ended = endedFlag(player)
        before = ThreadActivity.sample()
        player.play()
        #expect(await eventually(timeout: 15) { ended.value })
        activity = ThreadActivity.difference(before, ThreadActivity.sample())
        let playing = activity.filter { $0.thread.hasPrefix("playhead.text#") }
        #expect(playing.allSatisfy { $0.wakeups <= 25 }, "playing: \(ThreadActivity.describe(playing))")
        #expect(output.all.count == 6, "\(output.all.map(\.texts))")
        player.close()
        _ = sink.stopRecording()
    }

    /// Seeks back and forth while paused, each as soon as the one before finished: each seek finishes and shows
    /// the cues of its target. (A seek's interrupt of the demuxer that came after the demux thread had carried
    /// the seek out ended the next read, and FFmpeg's Matroska reader then said the file ended: the seek never
    /// finished, `await seek` waited for good; 6 runs of 15 hung within the 60 seeks.)
    @Test func pausedSeeksBackAndForthEachFinishAndShowTheirCues() async throws {
        let sink = try TestSink()
        let (player, item, output) = try Self.subtitledPlayer(sink)
        #expect(await eventually { item.status == .readyToPlay })
        // Rounds done, and what went wrong; the seeks run in a task of their own, so one that never finishes
        // fails the test (closing the player ends its wait) instead of holding it.
        let progress = Locked((rounds: 0, problem: String?.none))
        let seeks = Task { @MainActor in
            for round in 0..<60 {
                let (seconds, expected) = round % 2 == 0 ? (2.8, ["Two\nlines"]) : (3.8, [])
                let time = MediaTime(seconds: seconds, preferredTimescale: 1000)
                guard await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) else {
                    progress.withLock { $0.problem = "round \(round): the seek to \(seconds) s did not finish" }
                    return
                }
                guard await eventually(timeout: 2, { output.all.last?.texts == expected }) else {
                    let shown = output.all.last?.texts ?? []
                    progress.withLock { $0.problem = "round \(round): at \(seconds) s the output shows \(shown)" }
                    return
                }
                progress.withLock { $0.rounds += 1 }
            }
        }
        let done = await eventually(timeout: 30) { progress.current.rounds == 60 || progress.current.problem != nil }
        #expect(done && progress.current.problem == nil, "\(progress.current.problem ?? "a seek never finished")")
        player.close()
        await seeks.value
        _ = sink.stopRecording()
    }
}
