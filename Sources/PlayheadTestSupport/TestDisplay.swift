import Foundation

/// The tests' X server (Xvfb, started by `scripts/daemons.sh`): its name, the windows on it, and what its screen
/// shows, read back from the server (ffmpeg's x11grab), as a person would see it. Safe from any thread.
public enum TestDisplay {
    /// The display name (`:N`) from `PLAYHEAD_TEST_DISPLAY`; throws when the X server was not started.
    public static func name() throws -> String {
        guard let d = ProcessInfo.processInfo.environment["PLAYHEAD_TEST_DISPLAY"], d.hasPrefix(":") else {
            throw TestSupportError("no test X server: PLAYHEAD_TEST_DISPLAY is not set (run scripts/test.sh)")
        }
        return d
    }

    /// Points this process at the test display (SDL reads `DISPLAY` when it starts) and returns its name. Call
    /// `leave()` when done: the programs other tests start must not inherit a display they did not ask for.
    @discardableResult
    public static func useInThisProcess() throws -> String {
        let d = try name()
        setenv("DISPLAY", d, 1)
        return d
    }

    /// Unsets `DISPLAY` in this process again.
    public static func leave() { unsetenv("DISPLAY") }

    /// This process's environment without a display (`DISPLAY`, `WAYLAND_DISPLAY`), with `display` as `DISPLAY`
    /// when given: for a program started to see a display or none.
    public static func environment(display: String?) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["WAYLAND_DISPLAY"] = nil
        return env
    }

    /// A window's place on the screen.
    public struct Geometry: Sendable, Equatable, CustomStringConvertible {
        /// The window's left edge on the screen.
        public var x: Int
        /// The window's top edge on the screen.
        public var y: Int
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// `WxH+X+Y`.
        public var description: String { "\(width)x\(height)+\(x)+\(y)" }
        /// A window's place.
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// The geometry of the mapped window titled `title`, nil when there is none.
    public static func window(titled title: String, on display: String? = nil) throws -> Geometry? {
        let r = try Run.command("xwininfo", ["-display", try display ?? name(), "-name", title], timeout: 10)
        guard r.status == 0 else { return nil }
        func field(_ label: String) -> Int? {
            r.stdout.split(separator: "\n").first { $0.contains(label) }
                .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
        }
        guard r.stdout.contains("IsViewable"), let x = field("Absolute upper-left X"),
            let y = field("Absolute upper-left Y"), let w = field("Width"), let h = field("Height")
        else { return nil }
        return Geometry(x: x, y: y, width: w, height: h)
    }

    /// Waits up to `seconds` for a viewable window titled `title`.
    public static func waitForWindow(titled title: String, on display: String? = nil, seconds: Double = 10) throws
        -> Geometry?
    {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let g = try window(titled: title, on: display) { return g }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    /// What the screen shows in `area`, read from the X server.
    public static func grab(_ area: Geometry, on display: String? = nil) throws -> Screenshot {
        let file = Paths.scratch("grab").appendingPathComponent("screen.rgb")
        let r = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "x11grab", "-draw_mouse", "0", "-video_size",
                "\(area.width)x\(area.height)", "-i", "\(try display ?? name())+\(area.x),\(area.y)", "-frames:v", "1",
                "-f", "rawvideo", "-pix_fmt", "rgb24", file.path,
            ], timeout: 30)
        guard r.status == 0 else { throw TestSupportError("x11grab failed: \(r.stderr)") }
        let bytes = try [UInt8](Data(contentsOf: file))
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
        guard bytes.count == area.width * area.height * 3 else {
            throw TestSupportError("x11grab gave \(bytes.count) bytes for \(area)")
        }
        return Screenshot(width: area.width, height: area.height, rgb: bytes)
    }

    /// A point of a window and the colour expected there.
    public typealias ColourCheck = (x: Int, y: Int, colour: (Int, Int, Int))

    /// Grabs the window titled `title` until every point shows its colour (within 16/255; drawing is
    /// asynchronous) or `seconds` pass; returns a description of each point that does not (empty: all do).
    public static func mismatches(
        in title: String, on display: String? = nil, _ points: [ColourCheck], seconds: Double = 5
    ) throws -> [String] {
        var wrong: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let g = try window(titled: title, on: display) {
                let shot = try grab(g, on: display)
                wrong = points.filter { !shot.matches($0.x, $0.y, $0.colour) }.map { p in
                    "(\(p.x), \(p.y)) is \(shot.pixel(p.x, p.y)), not \(p.colour) in \(g)"
                }
                if wrong.isEmpty { return [] }
            } else {
                wrong = ["no window titled \(title)"]
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return wrong
    }

    /// Moves the mouse pointer to the bottom-right pixel of the screen, where no test opens a window: a window
    /// that opens under the pointer shows its player controls (as on a desktop), over the pixels a test reads.
    public static func parkPointer(on display: String? = nil) throws {
        let size = try Run.command("xdotool", ["getdisplaygeometry"], environment: ["DISPLAY": try display ?? name()])
        let wh = size.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard wh.count == 2 else { throw TestSupportError("xdotool getdisplaygeometry said \(size.stdout)") }
        try xdotool(["mousemove", "\(wh[0] - 1)", "\(wh[1] - 1)"], on: display)
    }

    /// Runs `xdotool` on the test display (or `display`).
    @discardableResult
    public static func xdotool(_ arguments: [String], on display: String? = nil) throws -> Run.Result {
        try Run.command("xdotool", arguments, environment: ["DISPLAY": try display ?? name()], timeout: 20)
    }
}

/// An RGB picture of part of the screen.
public struct Screenshot: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Rows of red, green, blue bytes.
    public let rgb: [UInt8]

    /// A picture of `width` x `height` from its RGB24 bytes.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        (self.width, self.height, self.rgb) = (width, height, rgb)
    }

    /// The colour at (x, y).
    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// The pixels brighter than 180 in all three channels (subtitle text) in rows `rows`, as `y * width + x`.
    public func brightPixels(inRows rows: Range<Int>) -> Set<Int> {
        var bright = Set<Int>()
        for y in rows.clamped(to: 0..<height) {
            for x in 0..<width {
                let p = pixel(x, y)
                if p.r > 180, p.g > 180, p.b > 180 { bright.insert(y * width + x) }
            }
        }
        return bright
    }

    /// Whether the colour at (x, y) is within `tolerance` of `expected` in each channel.
    public func matches(_ x: Int, _ y: Int, _ expected: (Int, Int, Int), tolerance: Int = 16) -> Bool {
        let p = pixel(x, y)
        return abs(p.r - expected.0) <= tolerance && abs(p.g - expected.1) <= tolerance
            && abs(p.b - expected.2) <= tolerance
    }
}
