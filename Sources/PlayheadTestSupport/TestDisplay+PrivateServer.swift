import Foundation

/// X servers of a test's own, for tests that end them or need a window manager (the shared one, started by
/// `scripts/daemons.sh`, must stay up for the others). Safe from any thread.
extension TestDisplay {
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
}
