import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `Player.audioOutputChoice` takes effect when it is set (it was read once, for the first item: a choice set after
/// `Player(url:)`, or later, never applied), heard at the sinks of the tests' PulseAudio.
@MainActor @Suite(.serialized) struct AudioOutputChoiceTests {
    @Test func aChoiceMadeRightAfterPlayerURLIsTheOutput() async throws {
        let sink = try TestSink()
        let player = Player(url: try Fixtures.tone(seconds: 3, ext: "wav"))
        player.audioOutputChoice = .pulse(device: sink.name)
        defer { player.close() }
        player.play()
        #expect(await eventually { player.currentTime().seconds > 1.5 })
        let heard = sink.stopRecording()
        #expect(AudioAnalysis.audibleSeconds(heard) > 1, "\(AudioAnalysis.audibleSeconds(heard)) s reached the sink")
    }

    @Test func aChoiceMadeWhilePlayingMovesTheSoundOnFromWhereItWas() async throws {
        let first = try TestSink()
        let second = try TestSink()
        let player = Player()
        player.audioOutputChoice = .pulse(device: first.name)
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 6, ext: "wav")))
        player.play()
        #expect(await eventually { player.currentTime().seconds > 1.5 })
        let before = player.currentTime().seconds
        player.audioOutputChoice = .pulse(device: second.name)
        let right = player.currentTime().seconds
        #expect(right >= before - 0.1, "the item went back to \(right) s from \(before) s")
        #expect(await eventually { player.currentTime().seconds > before + 1 }, "it did not play on")
        let after = player.currentTime().seconds
        let heardFirst = first.stopRecording()
        let heardSecond = second.stopRecording()
        #expect(
            AudioAnalysis.audibleSeconds(heardSecond) > 0.7,
            "\(AudioAnalysis.audibleSeconds(heardSecond)) s on the new sink")
        // The old sink heard the part before the change only; the item went on, not from its start.
        #expect(
            AudioAnalysis.audibleSeconds(heardFirst) < before + 0.5,
            "\(AudioAnalysis.audibleSeconds(heardFirst)) s on the old sink")
        #expect(after < before + 3, "restarted or skipped: \(before) -> \(after)")
        #expect(player.timeControlStatus == .playing)
    }
}
