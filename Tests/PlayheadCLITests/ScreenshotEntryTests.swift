import Foundation
import PlayheadTestSupport
import Testing

/// `s` saves what the window shows of the entry playing: while sound alone plays after a video, nothing (it saved
/// the video's last picture, which the window no longer showed).
@Suite(.serialized) struct ScreenshotEntryTests {
    @Test func soundAloneAfterAVideoHasNoPictureToSave() throws {
        let folder = Paths.scratch("screenshots-entries")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bars = try Fixtures.colourBars()
        let tone = try Fixtures.tone(seconds: 6, ext: "wav")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-mpris", "--no-resume", bars.path, tone.path]
        p.environment = TestDisplay.environment(display: try TestDisplay.name())
        p.currentDirectoryURL = folder
        try Run.start(p)
        defer { Run.kill(p) }
        let videoTitle = "\(bars.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: videoTitle), "no window")
        Thread.sleep(forTimeInterval: 0.5)
        try WindowCommandTests.type(["greater"], into: videoTitle)
        let toneTitle = "\(tone.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: toneTitle), "the window did not follow the entry")
        Thread.sleep(forTimeInterval: 0.5)
        try WindowCommandTests.type(["s"], into: toneTitle)
        Thread.sleep(forTimeInterval: 1.5)
        let saved = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        #expect(saved.isEmpty, "saved \(saved) while sound alone played")
    }
}
