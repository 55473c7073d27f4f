import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Seeking an item shown with a subtitle file beside it (`URLAsset.OptionKey.subtitleFiles`, `playhead --sub-file`):
/// the picture goes where it was asked and the cues of the target show, whatever the file holds. (FFmpeg refuses
/// a seek in a subtitle file before its first cue, and any seek in one it read no cue from; the file's refusal
/// failed the item's seek, which then did not move: a seek back to the start with any subtitle file, every seek
/// with a WebVTT file that has a region.)
@MainActor @Suite(.serialized) struct SubtitleFileSeekTests {
    /// A subtitle file with one cue, "Later" from 2 to 3 s: SubRip and WebVTT with a region (read by Playhead's
    /// parsers; FFmpeg reads no cue of the latter), ASS (read by FFmpeg).
    static func laterCue(_ format: String) throws -> URL {
        let srt = Paths.fixtures.appendingPathComponent("later-cue.srt")
        try "1\n00:00:02,000 --> 00:00:03,000\nLater\n".write(to: srt, atomically: true, encoding: .utf8)
        switch format {
        case "srt":
            return srt
        case "ass":
            return try Fixtures.make("later-cue.ass", ["-i", srt.path])
        default:
            let vtt = Paths.fixtures.appendingPathComponent("later-cue-region.vtt")
            try """
            WEBVTT

            REGION
            id:corner
            width:40%

            00:00:02.000 --> 00:00:03.000 region:corner
            Later

            """.write(to: vtt, atomically: true, encoding: .utf8)
            return vtt
        }
    }

    @Test(arguments: ["srt", "ass", "region.vtt"]) func seeksLandAndShowTheTargetsCues(format: String) async throws {
        let (video, _) = try Fixtures.positionedCues()
        let item = PlayerItem(asset: URLAsset(url: video, options: [.subtitleFiles: [try Self.laterCue(format)]]))
        let player = Player()
        player.audioOutputChoice = .disabled
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        // Before the cue (the start among them), in it, after it, and back.
        for target in [4.0, 0.5, 2.5, 0.0, 5.0, 2.2] {
            let time = MediaTime(seconds: target, preferredTimescale: 1000)
            let finished = await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero)
            #expect(finished, "\(format): the seek to \(target) s did not finish")
            let shown = await eventually(timeout: 3) {
                abs((player.currentVideoFrame?.time.seconds ?? -1) - target) < 0.03
            }
            let at = player.currentVideoFrame?.time.seconds ?? -1
            #expect(shown, "\(format): after the seek to \(target) s the picture shown is the one of \(at) s")
            let expected = (2.0..<3.0).contains(target) ? ["Later"] : []
            let cues = await eventually(timeout: 3) { (output.all.last?.texts ?? []) == expected }
            #expect(cues, "\(format): at \(target) s the output shows \(output.all.last?.texts ?? [])")
        }
        player.close()
    }
}
