import Foundation
import PlayheadTestSupport
import Testing

/// Issue 18, destructive `--log-json`: the path is opened as every Unix tool opens it (never a temporary file
/// renamed over it), so a symlink is followed and kept, and a FIFO or `/dev/stderr` receive the events.
@Suite(.serialized) struct HostileLogJSONTests {
    func play(_ logPath: String, seconds: Double = 0.5) throws -> Run.Result {
        let tone = try Fixtures.tone(seconds: seconds)
        return try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--no-mpris", "--log-json=\(logPath)", tone.path], timeout: 30)
    }

    func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    @Test func aSymlinkIsFollowedNotReplaced() throws {
        let dir = Paths.scratch("logjson")
        let target = dir.appendingPathComponent("target.jsonl")
        let link = dir.appendingPathComponent("link.jsonl")
        // A previous run's log (a file of another kind is not written over: OutputFileCommandTests).
        try Data("{\"event\":\"old contents\"}\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let r = try play(link.path)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(isSymlink(link.path), "the symlink \(link.path) was replaced")
        let text = try String(contentsOf: target, encoding: .utf8)
        #expect(text.contains("\"ended\""), "the events did not reach the link's target: \(text)")
        #expect(!text.contains("old contents"), "the target was not truncated: \(text)")
    }

    @Test func aSymlinkToDevStderrWritesToStandardError() throws {
        // `--log-json=/dev/stderr` itself run as root replaced the system's /dev/stderr with the old code; a
        // symlink to it in a scratch folder shows the same (and is all the old code could destroy here).
        let link = Paths.scratch("logjson").appendingPathComponent("stderr.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/stderr")
        let r = try play(link.path)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(isSymlink(link.path), "the symlink \(link.path) was replaced")
        #expect(r.stderr.contains("{\"event\":\"ended\""), "no events on stderr: \(r.stderr)")
    }

    @Test func devStderrWorks() throws {
        let r = try play("/dev/stderr")
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("{\"event\":\"ended\""), "no events on stderr: \(r.stderr)")
        #expect(isSymlink("/dev/stderr"), "/dev/stderr is no longer a symlink")
    }

    @Test func aTerminalReceivesTheEvents() throws {
        // On a pseudo-terminal (`script`), `--log-json=/dev/tty` writes the events to it.
        let tone = try Fixtures.tone(seconds: 0.5)
        let r = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--no-mpris", "--log-json=/dev/tty", tone.path], keys: [],
            tail: 3, timeout: 30)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(r.stdout.contains("{\"event\":\"ended\""), "the terminal showed: \(r.stdout)")
    }

    @Test func aFIFOReceivesTheEvents() throws {
        let fifo = Paths.scratch("logjson").appendingPathComponent("events.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // A reader, as `tail -f` or a log collector would be.
        let reader = ReadAll(path: fifo.path)
        let r = try play(fifo.path)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let text = reader.wait()
        #expect(text.contains("\"ended\""), "the FIFO received: \(text)")
        var info = stat()
        #expect(stat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }

    /// `item-changed` names the entry that plays from then on, and none at the end (it named the entry just left:
    /// a QA pass could not tell from a log when an entry began).
    @Test func itemChangedNamesTheEntryThatPlaysNext() throws {
        let (a, b) = (try Fixtures.tone(seconds: 0.3, ext: "wav"), try Fixtures.tone(seconds: 0.3, frequency: 880))
        let log = Paths.scratch("log-item-changed").appendingPathComponent("log.jsonl")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", a.path, b.path],
            timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let changes = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "item-changed" }.compactMap { $0["input"] as? String }
        #expect(changes == [a.path, b.path, ""], "\(changes)")
    }

    @Test func aPathThatCannotBeOpenedIsAUsageError() throws {
        for path in ["/nonexistent-dir/e.jsonl", Paths.scratch("logjson").path] {
            let r = try play(path)
            #expect(r.status == 2, "\(path): exit \(r.status): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
            #expect(lines.count == 1 && lines[0].contains("--log-json") && lines[0].contains(path), "\(r.stderr)")
        }
    }
}

/// Reads a file (a FIFO) to its end on a thread. Safe from any thread.
private final class ReadAll: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(path: String) {
        Thread.detachNewThread { [self] in
            if let handle = FileHandle(forReadingAtPath: path) {
                data = handle.readDataToEndOfFile()
            }
            done.signal()
        }
    }

    /// What was read, once the writer closed it (at most 20 s).
    func wait() -> String {
        _ = done.wait(timeout: .now() + 20)
        return String(decoding: data, as: UTF8.self)
    }
}
