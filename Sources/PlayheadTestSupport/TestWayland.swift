import Foundation

/// A Wayland compositor of a test's own: weston with its X11 backend on a private Xvfb (640x480), drawing on the CPU
/// (pixman) with the kiosk shell (every window fills the output), so what a Wayland client shows is read back from
/// the X server (`TestDisplay.grab`). Weston's headless backend needs no X server but offers no seat (no input), on
/// which SDL 2 before 2.30 crashes at its start: `startWithoutSeat()` starts one, for that case. Safe from any
/// thread.
public struct TestWayland: Sendable {
    /// The compositor.
    public let compositor: Process
    /// The X server its output is a window of (none for the headless backend).
    public let server: Process?
    /// The X server's display name (`:N`): where the output's pixels are read.
    public let display: String?
    /// The compositor's socket name (`WAYLAND_DISPLAY`), in `runtimeDirectory`.
    public let socket: String
    /// The private `XDG_RUNTIME_DIR` holding the socket.
    public let runtimeDirectory: URL
    /// The compositor's log.
    public let log: URL

    /// The size of the output (and of the X server's screen).
    public static let outputSize = (width: 640, height: 480)

    /// Starts Xvfb and weston; returns once weston listens on its socket. Throws (a test fails, never skips)
    /// when either is missing or does not start.
    public static func start() throws -> TestWayland {
        let weston = try Run.which("weston")
        let (server, display) = try TestDisplay.startPrivateServer()
        return try start(
            weston, server: server, display: display,
            backend: [
                "--backend=x11-backend.so", "--use-pixman", "--shell=kiosk-shell.so",
                "--width=\(outputSize.width)", "--height=\(outputSize.height)",
            ])
    }

    /// Starts weston's headless backend: a compositor with an output and no seat, and no X server.
    public static func startWithoutSeat() throws -> TestWayland {
        try start(try Run.which("weston"), server: nil, display: nil, backend: ["--backend=headless-backend.so"])
    }

    private static func start(_ weston: String, server: Process?, display: String?, backend: [String]) throws
        -> TestWayland
    {
        let stopServer = { if let server { Run.kill(server) } }
        let folder = Paths.scratch("wayland")
        let runtime = folder.appendingPathComponent("xdg")
        let log = folder.appendingPathComponent("weston.log")
        let socket = "playhead-test-\(getpid())-\(UUID().uuidString.prefix(6))"
        let p = Process()
        do {
            try FileManager.default.createDirectory(
                at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            p.executableURL = URL(fileURLWithPath: weston)
            p.arguments = backend + ["--no-config", "--idle-time=0", "--socket=\(socket)", "--log=\(log.path)"]
            var environment = TestDisplay.environment(display: display)
            environment["XDG_RUNTIME_DIR"] = runtime.path
            p.environment = environment
            try Run.start(p)
        } catch {
            stopServer()
            throw error
        }
        let path = runtime.appendingPathComponent(socket).path
        let deadline = Date().addingTimeInterval(10)
        while p.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: path) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard p.isRunning, FileManager.default.fileExists(atPath: path) else {
            Run.kill(p)
            stopServer()
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw TestSupportError("weston did not start (\(backend[0])): \(said.suffix(600))")
        }
        return TestWayland(
            compositor: p, server: server, display: display, socket: socket, runtimeDirectory: runtime, log: log)
    }

    /// This process's environment with this compositor as the only display: `WAYLAND_DISPLAY` and
    /// `XDG_RUNTIME_DIR` set, `DISPLAY` unset.
    public var clientEnvironment: [String: String] {
        var environment = TestDisplay.environment(display: nil)
        environment["WAYLAND_DISPLAY"] = socket
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        return environment
    }

    /// What the compositor's output shows, read from its X server.
    public func grabOutput() throws -> Screenshot {
        guard let display else { throw TestSupportError("a headless compositor's output is not read back") }
        return try TestDisplay.grab(
            TestDisplay.Geometry(x: 0, y: 0, width: Self.outputSize.width, height: Self.outputSize.height),
            on: display)
    }

    /// Ends the compositor (SIGKILL: as a compositor that crashes) and leaves the X server running.
    public func killCompositor() { Run.kill(compositor) }

    /// Ends the compositor and the X server and removes the runtime folder.
    public func stop() {
        Run.kill(compositor)
        if let server { Run.kill(server) }
        try? FileManager.default.removeItem(at: runtimeDirectory.deletingLastPathComponent())
    }
}
