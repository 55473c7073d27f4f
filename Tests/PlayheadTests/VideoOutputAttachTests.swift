import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Video outputs come and go while an item plays or is paused (a window opened, a layout changed, Picture in
/// Picture): each shows the current picture at once and follows the clock; nothing is reopened or re-created.
@MainActor @Suite(.serialized) struct VideoOutputAttachTests {
    /// An output that reads the frame number `Fixtures.numberedVideo` draws into each picture.
    static func numberedOutput() -> CaptureVideoOutput {
        CaptureVideoOutput { frame in Fixtures.frameNumber { x, y in frame.luma(x: x, y: y) } }
    }

    @Test func outputsAttachAndDetachAtAnyMoment() async throws {
        let sink = try TestSink()
        let video = try Fixtures.numberedVideo()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: video)
        let (opens, decoders) = (PlaybackCounters.mediaOpens, PlaybackCounters.decoderCreations)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))

        for round in 0..<50 {
            let output = Self.numberedOutput()
            item.add(output)
            let first = try #require(output.frames.first, "round \(round): no picture at once while playing")
            let due = Int(player.currentTime().seconds * 25)
            #expect(abs(first.value - due) <= 3, "round \(round): frame \(first.value) shown at frame \(due)")
            // Two and a half frame durations: the next picture is due within one.
            try await Task.sleep(for: .milliseconds(100))
            #expect(output.frames.count >= 2, "round \(round): the attached output does not follow the clock")
            item.remove(output)
            let seen = output.frames.count
            try await Task.sleep(for: .milliseconds(40))
            #expect(output.frames.count == seen, "round \(round): a removed output still gets pictures")
        }

        player.pause()
        try await Task.sleep(for: .milliseconds(300))
        let pausedAt = Int(player.currentTime().seconds * 25)
        for round in 0..<50 {
            let output = Self.numberedOutput()
            item.add(output)
            #expect(output.frames.count == 1, "paused round \(round): \(output.frames.count) pictures")
            if let first = output.frames.first {
                #expect(
                    abs(first.value - pausedAt) <= 1, "paused round \(round): frame \(first.value), not \(pausedAt)")
            }
            try await Task.sleep(for: .milliseconds(10))
            #expect(output.frames.count == 1, "paused round \(round): pictures keep coming while paused")
            item.remove(output)
        }
        #expect(PlaybackCounters.mediaOpens - opens == 1, "the media was opened more than once")
        #expect(PlaybackCounters.decoderCreations - decoders == 2, "decoders were created again")
        player.close()
        _ = sink.stopRecording()
    }
}
