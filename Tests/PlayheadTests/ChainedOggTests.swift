import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Local chained Ogg files (songs joined end to end): FFmpeg alone gave the last song's length for the file's, held
/// the position there while the rest played, and could not seek past the first song; each song is now a part of
/// its own (`OggChainSource`).
@MainActor @Suite(.serialized) struct ChainedOggTests {
    /// The title the item shows now.
    func title(_ item: PlayerItem) -> String? { item.metadata.first { $0.key == .title }?.stringValue }

    /// Three 4 s songs: the item lasts 12 s, a seek to 6 s plays the second song from its middle (its tone, its
    /// title), and the third follows to the end.
    @Test func lastsAllItsSongsAndSeeksIntoTheSecond() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.chainedOgg())
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds > 0.5 }, "\(String(describing: item.error))")
        #expect(abs(item.duration.seconds - 12) < 0.1, "duration \(item.duration.seconds) s")
        #expect(title(item) == "Song A")
        let target = MediaTime(seconds: 6, preferredTimescale: 600)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        let landed = sink.samplesSoFar.count
        #expect(abs(player.currentTime().seconds - 6) < 0.3, "at \(player.currentTime().seconds) after the seek")
        #expect(await eventually(timeout: 3) { self.title(item) == "Song B" }, "\(String(describing: title(item)))")
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .paused }, "did not end")
        let heard = Array(sink.stopRecording().dropFirst(landed))
        #expect(AudioAnalysis.toneSequence(heard) == [550, 660], "\(AudioAnalysis.toneSequence(heard))")
        #expect(abs(AudioAnalysis.audibleSeconds(heard) - 6) < 0.3, "\(AudioAnalysis.audibleSeconds(heard)) s")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        #expect(title(item) == "Song C")
        #expect(abs(player.currentTime().seconds - 12) < 0.2, "ended at \(player.currentTime().seconds)")
    }

    /// A 48 kHz stereo Vorbis song after a 44.1 kHz mono one, then an Opus song: each at its own pitch (the second
    /// played at 1162 Hz for 1000 while its decoder kept the first song's setup), 10 s in all, without a gap.
    @Test func songsCodedOtherwisePlayAtTheirPitch() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.chainedOggOfMixedCodings())
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(abs(item.duration.seconds - 10) < 0.1, "duration \(item.duration.seconds) s")
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused }, "did not end")
        let heard = sink.stopRecording()
        #expect(AudioAnalysis.toneSequence(heard) == [440, 1000, 800], "\(AudioAnalysis.toneSequence(heard))")
        #expect(abs(AudioAnalysis.audibleSeconds(heard) - 10) < 0.2, "\(AudioAnalysis.audibleSeconds(heard)) s")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
    }

    /// Queued after a 2 s tone, the chained file is opened and read ahead while the tone plays, past its second
    /// song's start: the first song's title shows while the first song plays (the second song's, read ahead, was
    /// shown from the item's start), and the second song's when it starts.
    @Test func aQueuedChainShowsEachSongsTitleWhenItPlays() async throws {
        let sink = try TestSink()
        let chain = PlayerItem(url: try Fixtures.chainedOgg())
        let player = QueuePlayer(items: [PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav")), chain])
        player.audioOutputChoice = .pulse(device: sink.name)
        defer { player.close() }
        player.play()
        #expect(await eventually(timeout: 10) { player.currentItem === chain }, "the chain did not follow the tone")
        try await Task.sleep(for: .seconds(1))
        #expect(title(chain) == "Song A", "\(String(describing: title(chain))) 1 s into the first song")
        #expect(await eventually(timeout: 6) { self.title(chain) == "Song B" }, "\(String(describing: title(chain)))")
        #expect(player.currentTime().seconds > 3.5, "Song B shown at \(player.currentTime().seconds) s")
    }
}
