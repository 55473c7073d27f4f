import Foundation
import PlayheadTestSupport
import Testing

/// Moving between entries while paused: a video entry reached from a sound-only one shows its first picture at
/// once, as a paused AVPlayer shows a new item's (the window stayed black until play).
@Suite(.serialized) struct PausedEntryPictureTests {
    @Test func aVideoReachedWhilePausedFromSoundShowsItsPicture() throws {
        let bars = try Fixtures.colourBars()
        let tone = try Fixtures.tone(seconds: 6, ext: "wav")
        let grey = try Fixtures.positionedCues().video
        let (p, _) = try WindowCommandTests.launch(
            ["--ao=null", "--no-mpris", "--no-resume", bars.path, tone.path, grey.path],
            display: try TestDisplay.name())
        defer { Run.kill(p) }
        let barsTitle = "\(bars.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: barsTitle), "no window")
        Thread.sleep(forTimeInterval: 0.5)
        try WindowCommandTests.type(["space", "greater"], into: barsTitle)
        let toneTitle = "\(tone.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: toneTitle), "the window did not follow the entry")
        Thread.sleep(forTimeInterval: 0.5)
        try WindowCommandTests.type(["greater"], into: toneTitle)
        let greyTitle = "\(grey.lastPathComponent) - playhead"
        let g = try #require(try TestDisplay.waitForWindow(titled: greyTitle), "the window did not follow the entry")
        // The grey picture (0x40) in the middle of the window, within 3 s, while paused.
        var centre = (r: 0, g: 0, b: 0)
        for _ in 0..<30 {
            centre = try TestDisplay.grab(g).pixel(g.width / 2, g.height / 3)
            if abs(centre.r - 64) <= 12, abs(centre.g - 64) <= 12, abs(centre.b - 64) <= 12 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(
            abs(centre.r - 64) <= 12 && abs(centre.g - 64) <= 12 && abs(centre.b - 64) <= 12,
            "the window shows \(centre)")
    }
}
