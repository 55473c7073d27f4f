import Foundation
import PlayheadTestSupport
import Testing

/// Issue 18, lost state: `--length`/`--end` deleted the saved resume position, a signal in the first
/// milliseconds was lost, and a failed MPRIS `OpenUri` dropped the item playing.
@Suite(.serialized) struct HostileStateTests {
    /// A private state folder whose `resume.json` says `file` was left at `position`.
    func stateHome(_ position: Double, for file: URL) throws -> (env: [String: String], file: URL) {
        let home = Paths.scratch("state")
        let json = home.appendingPathComponent("playhead/resume.json")
        try FileManager.default.createDirectory(at: json.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: [file.path: ["position": position]]).write(to: json)
        return (["XDG_STATE_HOME": home.path], json)
    }

    func savedPosition(_ json: URL, _ file: URL) throws -> Double? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: [String: Double]]
        return object?[file.path]?["position"]
    }

    @Test(arguments: [["--start=10", "--length=1"], ["--start=10", "--end=11"], ["--end=62"]])
    func stoppingAtEndOrLengthKeepsTheResumePosition(_ stop: [String]) throws {
        let chirp = try GaplessFixtures.positionChirp()
        let (env, json) = try stateHome(60, for: chirp)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--no-mpris", "--untimed"] + stop + [chirp.path], environment: env,
            timeout: 30)
        #expect(r.status == 0, "\(stop): exit \(r.status): \(r.stderr)")
        let text = (try? String(contentsOf: json, encoding: .utf8)) ?? ""
        #expect(try savedPosition(json, chirp) == 60, "\(stop) changed resume.json: \(text)")
    }

    @Test func playingToTheRealEndStillForgetsIt() throws {
        // The other side: --end past the end is the end, and the position is forgotten as before.
        let chirp = try GaplessFixtures.positionChirp()
        let (env, json) = try stateHome(295, for: chirp)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--no-mpris", "--untimed", "--end=400", chirp.path],
            environment: env, timeout: 30)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let text = (try? String(contentsOf: json, encoding: .utf8)) ?? ""
        #expect(try savedPosition(json, chirp) == nil, "\(text)")
    }

    /// Starts `playhead ARGS`, sends `signal` after `delay` seconds, and returns its exit status and how long it
    /// ran (nil status: still running after 10 s, then killed).
    func signalled(_ arguments: [String], _ signal: Int32, after delay: Double) throws -> (Int32?, Double, Int32) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        let start = Date()
        try Run.start(p)
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        kill(p.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let running = p.isRunning
        Run.kill(p)
        return (running ? nil : p.terminationStatus, Date().timeIntervalSince(start), p.processIdentifier)
    }

    @Test(arguments: [0.0, 0.005, 0.02, 0.05, 0.1, 0.3])
    func anEarlySignalQuits(_ delay: Double) throws {
        // A 20 s tone: quitting must not wait for its end, however early the signal comes.
        let tone = try Fixtures.tone(seconds: 20)
        for signal in [SIGINT, SIGTERM] {
            let (status, seconds, _) = try signalled(["--ao=null", "--no-mpris", tone.path], signal, after: delay)
            #expect(status == 0, "signal \(signal) at \(delay) s: exit \(String(describing: status))")
            #expect(seconds < 5, "signal \(signal) at \(delay) s: quit after \(seconds) s")
        }
    }

    /// GNU `timeout` (a sleep timer: `timeout 30m playhead book.mp3`) sends SIGTERM to the player and then to its
    /// process group: one request, two signals a few milliseconds apart. It quits as for one, saving the position
    /// (the second signal made it exit at once, unsaved, with status 143).
    @Test func aSignalSentTwiceAtOnceQuitsOnceAndSavesThePosition() throws {
        let chirp = try GaplessFixtures.positionChirp()
        for round in 1...4 {
            let (env, json) = try stateHome(100, for: chirp)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
            p.arguments = ["--ao=null", "--no-mpris", chirp.path]
            p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try Run.start(p)
            defer { Run.kill(p) }
            Thread.sleep(forTimeInterval: 1)
            kill(p.processIdentifier, SIGTERM)
            usleep(2000)
            kill(p.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            let status = p.isRunning ? -1 : p.terminationStatus
            #expect(status == 0, "round \(round): exit \(status)")
            let saved = try savedPosition(json, chirp)
            #expect(saved.map { $0 > 100 && $0 < 105 } == true, "round \(round): saved \(String(describing: saved))")
        }
    }

    @Test(arguments: [0.02, 0.2, 1.0])
    func sigtermLeavesNoSinkInputBehind(_ delay: Double) throws {
        try PulseServer.require()
        let tone = try Fixtures.tone(seconds: 20)
        let (status, _, pid) = try signalled(["--ao=pulse", "--no-mpris", tone.path], SIGTERM, after: delay)
        #expect(status == 0, "SIGTERM at \(delay) s: exit \(String(describing: status))")
        // Right after the exit: the sound server has no stream of that process.
        let inputs = try Run.command("pactl", ["list", "sink-inputs"], timeout: 10).stdout
        #expect(!inputs.contains("application.process.id = \"\(pid)\""), "a sink input of \(pid) is left: \(inputs)")
    }

    @Test func openUriOfSomethingNotMediaIsAnErrorAndPlaybackContinues() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let chirp = try GaplessFixtures.positionChirp()
        let (env, json) = try stateHome(100, for: chirp)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", chirp.path]
        p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try Run.start(p)
        defer { Run.kill(p) }
        var deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !(try Run.command("playerctl", ["-l"], timeout: 5).stdout.contains("playhead")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let name = "org.mpris.MediaPlayer2.playhead"
        for uri in ["file:///etc/passwd", "file:///dev/null"] {
            let open = try Run.command(
                "dbus-send",
                [
                    "--session", "--print-reply", "--dest=\(name)", "/org/mpris/MediaPlayer2",
                    "org.mpris.MediaPlayer2.Player.OpenUri", "string:\(uri)",
                ], timeout: 20)
            #expect(open.status != 0, "OpenUri \(uri) succeeded: \(open.stdout)")
            #expect(open.stderr.contains("Error"), "OpenUri \(uri): \(open.stderr)")
        }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(p.isRunning, "playhead ended after the failed OpenUri")
        let status = try Run.command("playerctl", ["-p", "playhead", "status"], timeout: 5).stdout
        #expect(status.hasPrefix("Playing"), "status \(status)")
        let title = try Run.command("playerctl", ["-p", "playhead", "metadata", "xesam:title"], timeout: 5).stdout
        #expect(title.contains("position-chirp"), "title \(title)")
        // Quitting now saves where the item playing was (it resumed at 100 s).
        kill(p.processIdentifier, SIGTERM)
        deadline = Date().addingTimeInterval(10)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!p.isRunning && p.terminationStatus == 0, "exit \(p.isRunning ? -1 : p.terminationStatus)")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!stderr.contains("passwd"), "the failed OpenUri reached the queue: \(stderr)")
        let saved = try #require(try savedPosition(json, chirp), "no resume position saved")
        #expect(saved > 100 && saved < 110, "saved \(saved)")
    }
}
