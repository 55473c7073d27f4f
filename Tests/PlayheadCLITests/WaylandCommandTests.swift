import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` on a Wayland compositor alone (`WAYLAND_DISPLAY` set, `DISPLAY` not): its window shows the picture
/// on the compositor's output, and a compositor that dies mid-play, or offers no seat, is said once while the sound
/// plays on.
@Suite(.serialized) struct WaylandCommandTests {
    /// `colourBars()` with 4 s of a 440 Hz tone beside it: the bars show where the window is, the sound keeps the
    /// clock.
    static func barsWithSound() throws -> URL {
        let bars = try Fixtures.colourBars()
        let tone = try Fixtures.tone(seconds: 4)
        return try Fixtures.make(
            "bars-709-tv-tone.mp4", ["-i", bars.path, "-i", tone.path, "-map", "0:v", "-map", "1:a", "-c", "copy"])
    }

    /// `playhead ARGS` with `wayland`'s compositor as its only display, its standard error kept.
    static func launch(_ arguments: [String], on wayland: TestWayland) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = arguments
        p.environment = wayland.clientEnvironment
        let err = Pipe()
        p.standardError = err
        try Run.start(p)
        return (p, err)
    }

    /// Waits up to `seconds` for the output to show the four bars filling it (the kiosk shell makes the window
    /// fill the 640x480 output: each 80-pixel bar is 160 wide); returns what does not match (empty: all do).
    static func waitForBars(on wayland: TestWayland, seconds: Double = 10) throws -> [String] {
        let points = Fixtures.barColours.enumerated().map { i, colour in (x: i * 160 + 80, y: 300, colour: colour) }
        var wrong: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let shot = try wayland.grabOutput()
            wrong = points.filter { !shot.matches($0.x, $0.y, $0.colour) }.map { p in
                "(\(p.x), \(p.y)) is \(shot.pixel(p.x, p.y)), not \(p.colour)"
            }
            if wrong.isEmpty { return [] }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return wrong
    }

    @Test func aWindowOpensOnWaylandAlone() throws {
        let wayland = try TestWayland.start()
        defer { wayland.stop() }
        let video = try Self.barsWithSound()
        let (p, err) = try Self.launch(["--ao=null", "--no-mpris", "--length=3", video.path], on: wayland)
        defer { Run.kill(p) }
        let wrong = try Self.waitForBars(on: wayland)
        #expect(wrong.isEmpty, "the bars are not on the compositor's output: \(wrong.joined(separator: "; "))")
        #expect(WindowCommandTests.waitForExit(p, seconds: 15), "playhead did not end")
        #expect(p.terminationStatus == 0, "exit \(p.terminationStatus)")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    /// The compositor is killed while the window shows the video: the sound plays on to the end, one line says why
    /// the pictures went, and the program ends normally. The sound is recorded from the sound server.
    @Test func aCompositorThatDiesIsSaidOnceAndThePlayerPlaysOn() throws {
        let wayland = try TestWayland.start()
        defer { wayland.stop() }
        let video = try Self.barsWithSound()
        let sink = try TestSink()
        let log = Paths.scratch("wayland-lost").appendingPathComponent("events.jsonl")
        let started = Date()
        let (p, err) = try Self.launch(
            [
                "--ao=pulse", "--audio-device=\(sink.name)", "--no-mpris", "--length=4", "--log-json=\(log.path)",
                video.path,
            ],
            on: wayland)
        defer { Run.kill(p) }
        let wrong = try Self.waitForBars(on: wayland)
        try #require(wrong.isEmpty, "no window on the compositor: \(wrong.joined(separator: "; "))")
        Thread.sleep(forTimeInterval: 0.5)
        wayland.killCompositor()
        #expect(WindowCommandTests.waitForExit(p, seconds: 15), "playhead hung after its compositor died")
        #expect(p.terminationStatus == 0, "exit \(p.terminationStatus)")
        #expect(Date().timeIntervalSince(started) >= 3.9, "it stopped before the end")
        let samples = sink.stopRecording()
        let heard = AudioAnalysis.soundSeconds(samples)
        #expect(heard > 3.8, "\(heard) s of the 4 s of sound were heard")
        let gap = AudioAnalysis.longestGap(samples)
        #expect(gap < 0.1, "the sound stopped for \(gap) s")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && stderr.contains("display went away"), "\(stderr)")
        let events = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(events.contains("\"ended\""), "the item did not play to its end: \(events.suffix(300))")
    }

    /// A compositor that offers no seat (no input at all), on which SDL 2 before 2.30 crashes at its start: one
    /// line says why no window opens, the sound plays to the end, and the program ends normally.
    @Test func aCompositorWithoutASeatIsSaidOnceAndThePlayerPlaysOn() throws {
        let wayland = try TestWayland.startWithoutSeat()
        defer { wayland.stop() }
        let video = try Self.barsWithSound()
        let started = Date()
        let (p, err) = try Self.launch(["--ao=null", "--no-mpris", "--length=2", video.path], on: wayland)
        defer { Run.kill(p) }
        #expect(WindowCommandTests.waitForExit(p, seconds: 15), "playhead hung on a compositor without a seat")
        #expect(p.terminationStatus == 0 && p.terminationReason == .exit, "ended by \(p.terminationStatus)")
        #expect(Date().timeIntervalSince(started) >= 1.9, "it did not play the 2 s")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && stderr.contains("cannot open a window") && stderr.contains("no seat"), "\(stderr)")
    }
}
