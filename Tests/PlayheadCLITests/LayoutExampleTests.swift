import Foundation
import PlayheadTestSupport
import Testing

/// The layout example (`Examples/LayoutExample`, issue 17): its window dragged across the width breakpoint 20
/// times while playing and 20 times while paused, on an X server of the test's own with openbox; the example says
/// on standard output, at each layout change, where its one player is and what it opened.
@Suite(.serialized) struct LayoutExampleTests {
    struct Report: Decodable {
        var layout: String
        var position: Double
        var rate: Double
        var opens: Int
        var decoders: Int
    }

    /// The example's reports, read line by line as they come.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var buffer = Data()
        private var reports: [Report] = []

        init(_ pipe: Pipe) {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.lock()
                defer { self.lock.unlock() }
                self.buffer.append(data)
                while let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = self.buffer[self.buffer.startIndex..<newline]
                    self.buffer.removeSubrange(self.buffer.startIndex...newline)
                    if let report = try? JSONDecoder().decode(Report.self, from: Data(line)) {
                        self.reports.append(report)
                    }
                }
            }
        }

        var all: [Report] {
            lock.lock()
            defer { lock.unlock() }
            return reports
        }

        /// Waits up to 5 s for report number `count` (1-based).
        func wait(for count: Int) -> Report? {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                let now = all
                if now.count >= count { return now[count - 1] }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }
    }

    @Test func crossingTheBreakpointNeverPausesReloadsOrStartsThePlayer() throws {
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let sink = try TestSink()
        let p = Process()
        p.executableURL = Paths.packageRoot.appendingPathComponent(".build/debug/playhead-layout-example")
        p.arguments = ["--breakpoint=500", try Fixtures.barsWithTone().path]
        var env = TestDisplay.environment(display: x.display)
        env["PULSE_SINK"] = sink.name
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        let reader = Reader(out)
        try Run.start(p)
        defer { Run.kill(p) }
        let title = "Playhead layout example"
        let first = try #require(reader.wait(for: 1), "the example said nothing")
        #expect(first.layout == "expanded", "640 wide, over the 500 breakpoint: \(first.layout)")
        let id = try #require(
            try TestDisplay.xdotool(["search", "--sync", "--name", "^\(title)$"], on: x.display).stdout
                .split(separator: "\n").first.map(String.init))
        _ = try TestDisplay.waitForWindow(titled: title, on: x.display)
        Thread.sleep(forTimeInterval: 1)

        // Compact: the picture across the top, the queue's panel below; expanded: the picture at the left, the
        // panel at the right. The panel's background is (24, 24, 32); the picture's middle bar is green.
        func checkPixels(compact: Bool) throws {
            let g = try #require(try TestDisplay.window(titled: title, on: x.display))
            let shot = try TestDisplay.grab(g, on: x.display)
            let (picture, panel) = compact ? ((200, 100), (200, 390)) : ((180, 150), (590, 200))
            let p = shot.pixel(picture.0, picture.1)
            #expect(p.g > 120 && p.r < 60 && p.b < 60, "compact \(compact): picture at \(picture) is \(p)")
            let q = shot.pixel(panel.0, panel.1)
            #expect(abs(q.r - 24) < 12 && abs(q.g - 24) < 12 && abs(q.b - 32) < 12, "compact \(compact): panel \(q)")
        }

        // Narrow (compact) and wide (expanded) in turn: each crossing is one report.
        func crossings(from start: Int) throws -> [Report] {
            var reports: [Report] = []
            for n in 0..<20 {
                let (w, h) = n % 2 == 0 ? (400, 400) : (600, 400)
                try TestDisplay.xdotool(["windowsize", id, "\(w)", "\(h)"], on: x.display)
                let report = try #require(reader.wait(for: start + n + 1), "no report after crossing \(n + 1)")
                #expect(report.layout == (n % 2 == 0 ? "compact" : "expanded"), "crossing \(n + 1): \(report.layout)")
                reports.append(report)
                Thread.sleep(forTimeInterval: 0.15)
                if n < 2 { try checkPixels(compact: n % 2 == 0) }
            }
            return reports
        }
        let playing = try crossings(from: 1)
        let positions = [first.position] + playing.map(\.position)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "positions \(positions)")
        #expect(playing.allSatisfy { $0.rate == 1 }, "rates \(playing.map(\.rate))")
        #expect(
            playing.allSatisfy { $0.opens == first.opens && $0.decoders == first.decoders },
            "opens \(playing.map(\.opens)), decoders \(playing.map(\.decoders)) after \(first.opens), \(first.decoders)"
        )

        // Paused (space), the same crossings: it stays paused, where it was, and silent.
        try TestDisplay.xdotool(["windowactivate", "--sync", id, "key", "space"], on: x.display)
        Thread.sleep(forTimeInterval: 0.5)
        let heard = sink.stopRecording()
        let paused = try crossings(from: 21)
        #expect(paused.allSatisfy { $0.rate == 0 }, "rates while paused \(paused.map(\.rate))")
        #expect(Set(paused.map(\.position)).count == 1, "positions while paused \(paused.map(\.position))")
        #expect(
            paused.allSatisfy { $0.opens == first.opens && $0.decoders == first.decoders }, "reloaded while paused")
        // The sound while playing across twenty layout changes: no gap.
        #expect(AudioAnalysis.longestGap(heard) < 0.005, "a gap of \(AudioAnalysis.longestGap(heard)) s")
        #expect(AudioAnalysis.soundSeconds(heard) > 3, "\(AudioAnalysis.soundSeconds(heard)) s heard")
    }
}
