import Foundation
import PlayheadTestSupport
import Testing

/// Next pressed many times at once (a held key, a media key tapped fast) moves that many entries on, each entry
/// opened once at most. Found by a QA pass: presses that came before the command heard of the last change of item
/// went on from the entry it had heard of, and made a new item of the same next entry each time (an HLS queue asked
/// for one stream's playlist 13 times for 30 presses, and played only after 24 s).
@Suite(.serialized) struct QuickNextCommandTests {
    @Test func tenQuickNextsMoveTenEntriesOpeningEachOnce() throws {
        guard let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let ladder = try HLSFixtures.tsLadder()
        let base = try HLSFixtures.url(ladder).absoluteString
        let entries = (1...14).map { "\(base)?quick-next=\($0)" }
        let log = Paths.scratch("quick-next").appendingPathComponent("log.jsonl")
        try FileManager.default.createDirectory(
            at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        let since = try HLSFixtures.requests().count
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--vo=null", "--log-json=\(log.path)"] + entries
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        let name = try #require(try SessionBus.mprisName(of: p.processIdentifier, seconds: 10), "no MPRIS name")
        func events() -> [[String: Any]] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        func heard(_ event: String, of entry: Int) -> Bool {
            events().contains {
                $0["event"] as? String == event && ($0["input"] as? String)?.hasSuffix("quick-next=\(entry)") == true
            }
        }
        #expect(PictureInPictureCommandTests.waitUntil({ heard("first-audio", of: 1) }, seconds: 10), "no sound")
        // The second entry is opened ahead (as while a song plays on): the presses come then.
        let preloaded = PictureInPictureCommandTests.waitUntil(
            { ((try? HLSFixtures.requests(since: since)) ?? []).contains { $0.hasSuffix("quick-next=2") } },
            seconds: 10)
        #expect(preloaded, "the second entry was not opened ahead")
        Thread.sleep(forTimeInterval: 0.5)
        // Ten Nexts as fast as dbus-send goes (a few milliseconds apart).
        let send =
            "for i in 1 2 3 4 5 6 7 8 9 10; do dbus-send --session --print-reply --dest=\(name) /org/mpris/MediaPlayer2 "
            + "org.mpris.MediaPlayer2.Player.Next; done"
        let r = try Run.command("bash", ["-c", send], environment: ["DBUS_SESSION_BUS_ADDRESS": bus], timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            PictureInPictureCommandTests.waitUntil({ heard("first-audio", of: 11) }, seconds: 10),
            "the 11th entry did not play: \(events().compactMap { $0["input"] as? String }.suffix(5))")
        let masters = try HLSFixtures.requests(since: since).filter { $0.contains("master.m3u8?quick-next=") }
        // Each entry's playlist once, by the open its player made; twice at most when the entry was skipped before
        // that open began and its chapters were being loaded (the asset then opens it for the load): not 13 times.
        let counts = Dictionary(grouping: masters) { $0 }.mapValues(\.count)
        #expect(counts.values.allSatisfy { $0 <= 2 }, "playlists asked for again and again: \(counts)")
        #expect(counts.count <= 12, "entries past the 11th and the one after it opened: \(counts.keys.sorted())")
    }
}
