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
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let seeks = events.filter { $0["event"] as? String == "seek-done" }.compactMap { $0["position"] as? Double }
        #expect(seeks.count == 3, "\(seeks)")
        for (done, target) in zip(seeks, [10.0, 20, 10]) {
            #expect(abs(done - target) < 0.05, "landed at \(seeks), not 10, 20, 10")
        }
        #expect(r.stdout.contains("chapter 2/3: Middle"), "\(r.stdout.suffix(300))")
        #expect(r.stdout.contains("ch 2/3"), "\(r.stdout.suffix(300))")
    }
}
