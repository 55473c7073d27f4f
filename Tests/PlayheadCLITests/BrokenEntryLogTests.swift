import Foundation
import PlayheadTestSupport
import Testing

/// Broken entries in a queue, as `--log-json` tells them, and a loop over entries that all fail.
struct BrokenEntryLogTests {
    /// Each entry is one `item-changed` event, in order, and a broken one's `error-log` and `error` follow its own
    /// `item-changed`; the log ends with the empty `item-changed`, a broken last entry too. (An entry that failed
    /// while it was opened ahead had its error before its item change, or none, and the entry after it two; after a
    /// broken last entry the log ended without the empty one.)
    @Test func eachEntryIsOneItemChangeBeforeItsError() throws {
        let tone = try Fixtures.tone(seconds: 1, ext: "wav").path
        let empty = Fixtures.file("broken-empty.flac", bytes: []).path
        let missing = Paths.scratch("broken-log").appendingPathComponent("missing.wav").path
        let text = Fixtures.file("broken-text.mp3", bytes: Array(String(repeating: "text\n", count: 500).utf8)).path
        let inputs = [tone, empty, missing, tone, text]
        let log = Paths.scratch("broken-log").appendingPathComponent("events.json")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)"] + inputs,
            timeout: 30)
        #expect(r.status == 1, "exit \(r.status); \(r.stderr)")
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        let told = events.compactMap { e -> (String, String)? in
            guard let kind = e["event"] as? String, ["item-changed", "error-log", "error"].contains(kind) else {
                return nil
            }
            return (kind, e["input"] as? String ?? "")
        }
        let changes = told.filter { $0.0 == "item-changed" }.map(\.1)
        #expect(changes == inputs + [""], "\(told)")
        for (i, event) in told.enumerated() where event.0 != "item-changed" {
            let change = told[..<i].last { $0.0 == "item-changed" }
            #expect(change?.1 == event.1, "\(event) after the item change to \(String(describing: change)): \(told)")
        }
        #expect(told.filter { $0.0 == "error" }.map(\.1) == [empty, missing, text], "\(told)")
    }

    /// A single entry that fails is logged as any run is: its `item-changed`, its error, then the empty
    /// `item-changed` that ends every run (it ended at the error).
    @Test func aSingleBrokenEntryEndsTheLogAsEveryRunDoes() throws {
        let text = Fixtures.file("broken-alone.mp3", bytes: Array(String(repeating: "text\n", count: 500).utf8)).path
        let log = Paths.scratch("broken-alone").appendingPathComponent("events.json")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", text],
            timeout: 20)
        #expect(r.status == 1, "exit \(r.status); \(r.stderr)")
        let changes = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return event?["event"] as? String == "item-changed" ? event?["input"] as? String : nil
        }
        #expect(changes == [text, ""], "\(changes)")
    }

    /// `--loop-playlist=inf` over entries that all fail ends once each has failed, with one line each and exit
    /// status 1 (it went on failing for ever, a line at a time).
    @Test func aLoopOverEntriesThatAllFailEnds() throws {
        let empty = Fixtures.file("broken-empty.flac", bytes: []).path
        let missing = Paths.scratch("broken-loop").appendingPathComponent("missing.wav").path
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris", "--loop-playlist=inf", empty, missing],
            timeout: 20)
        #expect(r.status == 1, "exit \(r.status); \(r.stderr)")
        #expect(r.seconds < 10, "took \(r.seconds) s")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        #expect(lines.count == 2, "\(r.stderr)")
    }
}
