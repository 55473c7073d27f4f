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

    /// An X server of a test's own, with a window manager when asked; `stop()` ends both.
    public struct PrivateServer: Sendable {
        /// The X server.
        public let server: Process
        /// The window manager (openbox), when one runs.
        public let windowManager: Process?
        /// The display name (`:N`).
        public let display: String

        /// Ends the window manager and the X server.
        public func stop() {
            if let windowManager { Run.kill(windowManager) }
            Run.kill(server)
        }
    }

    /// Starts an X server (640x480) with openbox managing its windows (fullscreen, close requests); waits until
    /// openbox has taken the screen.
    public static func startManagedServer() throws -> PrivateServer {
        let (server, display) = try startPrivateServer()
        let wm = Process()
        wm.executableURL = URL(fileURLWithPath: try Run.which("openbox"))
        wm.arguments = ["--sm-disable"]
        wm.environment = environment(display: display)
        do { try Run.start(wm) } catch {
            Run.kill(server)
            throw error
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let r = try Run.command("wmctrl", ["-m"], environment: ["DISPLAY": display], timeout: 5)
            if r.status == 0, r.stdout.contains("Openbox"), try managesAWindow(on: display, before: deadline) {
                return PrivateServer(server: server, windowManager: wm, display: display)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Run.kill(wm)
        Run.kill(server)
        throw TestSupportError("openbox did not take the screen of \(display)")
    }

    /// Whether the window manager on `display` manages a window mapped now: a probe window (`xmessage`) is shown
    /// until it is listed in `_NET_CLIENT_LIST`, a new one each second, until `deadline`. openbox names itself on
    /// the screen before it handles requests, and a window mapped in that moment was never shown: SDL waited for
    /// it for ever (an 11-minute hang of a Picture-in-Picture test, ended by mapping the window by hand).
    private static func managesAWindow(on display: String, before deadline: Date) throws -> Bool {
        let title = "playhead-wm-probe"
        while Date() < deadline {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: try Run.which("xmessage"))
            probe.arguments = ["-title", title, "probe"]
            probe.environment = environment(display: display)
            try Run.start(probe)
            defer { Run.kill(probe) }
            let tryUntil = min(deadline, Date().addingTimeInterval(1))
            while Date() < tryUntil {
                let listed = try Run.command("wmctrl", ["-l"], environment: ["DISPLAY": display], timeout: 5)
                if listed.status == 0, listed.stdout.contains(title) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        return false
    }

    /// Starts an X server of the test's own (Xvfb on a free display number, 640x480), for a test that ends it;
    /// returns it and its display name once it accepts connections. The caller stops it with `Run.kill`.
    public static func startPrivateServer() throws -> (server: Process, display: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("Xvfb"))
        p.arguments = ["-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset"]
        let out = Pipe()
        p.standardOutput = out
        try Run.start(p)
        // Xvfb writes its display number once it is ready.
        var number = ""
        while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            number.append(Character(UnicodeScalar(byte)))
        }
        guard !number.isEmpty else {
            Run.kill(p)
            throw TestSupportError("Xvfb did not start")
        }
        try parkPointer(on: ":\(number)")
        return (p, ":\(number)")
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
