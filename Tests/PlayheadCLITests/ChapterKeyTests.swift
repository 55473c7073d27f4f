import Foundation
import PlayheadTestSupport
import Testing

/// Page Down and Page Up in a terminal: the next and the previous chapter.
@Suite(.serialized) struct ChapterKeyTests {
    /// Three chapters of 10 s: Page Down at 1 s goes to 10 s, again to 20 s; Page Up within 5 s of that chapter's
    /// start goes back to the one before (10 s), which is named; the status line says which chapter plays.
    @Test func pageDownAndUpGoFromChapterToChapter() throws {
        let log = Paths.scratch("chapter-keys").appendingPathComponent("events.jsonl")
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--no-resume",
                "--log-json=\(log.path)", try Fixtures.chaptered().path,
            ],
            keys: [(1, "\u{1B}[6~"), (1, "\u{1B}[6~"), (1, "\u{1B}[5~"), (1, "q")], tail: 3, timeout: 40)
        #expect(r.status == 0, "\(r.stdout.suffix(300))")
        let seeks = EventLog.seeksLanded(in: try EventLog.read(log))
        #expect(seeks.count == 3, "\(seeks)")
        for (done, target) in zip(seeks, [10.0, 20, 10]) {
            #expect(abs(done - target) < 0.05, "landed at \(seeks), not 10, 20, 10")
        }
        #expect(r.stdout.contains("chapter 2/3: Middle"), "\(r.stdout.suffix(300))")
        #expect(r.stdout.contains("ch 2/3"), "\(r.stdout.suffix(300))")
    }

    /// Page Down pressed twice at once (one read of the terminal) goes two chapters on: the second press counts from
    /// where the first one goes, not from where the sound still is (it went to the second chapter twice).
    @Test func pageDownTwiceAtOnceGoesTwoChaptersOn() throws {
        let log = Paths.scratch("chapter-keys-twice").appendingPathComponent("events.jsonl")
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--no-resume",
                "--log-json=\(log.path)", try Fixtures.chaptered().path,
            ],
            keys: [(1, "\u{1B}[6~\u{1B}[6~"), (1, "q")], tail: 3, timeout: 40)
        #expect(r.status == 0, "\(r.stdout.suffix(300))")
        let landed = EventLog.seeksLanded(in: try EventLog.read(log))
        #expect(abs((landed.last ?? 0) - 20) < 0.05, "landed at \(landed), not 20")
        #expect(r.stdout.contains("chapter 3/3"), "\(r.stdout.suffix(300))")
    }

    /// Page Down typed into the video window goes to the next chapter as in the terminal.
    @Test func pageDownInTheWindowGoesToTheNextChapter() throws {
        let display = try TestDisplay.name()
        let clip = try Fixtures.chaptered(video: true)
        let log = Paths.scratch("chapter-window").appendingPathComponent("events.jsonl")
        try? FileManager.default.removeItem(at: log)
        let (p, _) = try WindowCommandTests.launch(
            ["--ao=null", "--no-mpris", "--no-resume", "--log-json=\(log.path)", clip.path], display: display)
        defer { Run.kill(p) }
        let title = "Chaptered - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: title), "no window titled \(title)")
        try WindowCommandTests.type(["Next"], into: title, on: display)
        var seeks: [Double] = []
        for _ in 0..<50 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            seeks = text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["event"] as? String == "seek-done" }.compactMap { $0["position"] as? Double }
            if !seeks.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(seeks.count == 1 && abs((seeks.first ?? 0) - 10) < 0.05, "seeks done at \(seeks)")
    }
}
