import Foundation

/// A PulseAudio daemon of one test's own (the flags of `scripts/daemons.sh`: null sinks `test_sink` and
/// `second_sink`, `module-role-cork`, `module-always-sink`), on a private socket, so a test can kill it and start
/// another on the same socket without touching the shared server. Safe from any thread.
public final class PrivatePulseServer: @unchecked Sendable {
    /// The folder holding the socket, the log and the daemon's runtime files.
    public let folder: URL
    /// The value for `PULSE_SERVER`.
    public var address: String { "unix:" + folder.appendingPathComponent("pulse.sock").path }
    /// The environment a client needs: `PULSE_SERVER`, and a private `HOME`/`XDG_RUNTIME_DIR` for the daemon.
    public var environment: [String: String] { ["PULSE_SERVER": address] }
    private var process: Process?
    private var daemonPID: Int32?

    /// Whether the server also loads `second_sink` and `module-always-sink` (a fallback for streams whose sink is
    /// removed); without them, removing `test_sink` leaves no sink at all.
    public let withFallback: Bool

    /// Makes the folder; call `start()` to run the daemon.
    public init(withFallback: Bool = true) {
        folder = Paths.scratch("pulse")
        self.withFallback = withFallback
    }

    /// Starts the daemon and waits until `pactl info` answers; throws (the test fails loudly) otherwise.
    ///
    /// The daemon runs under `sh`: PulseAudio closes every inherited descriptor at start, including the pipe
    /// Foundation's `Process` watches to learn that a child ended, which would stall every later `Process`.
    public func start() throws {
        let pidFile = folder.appendingPathComponent("pulse.pid")
        try? FileManager.default.removeItem(at: pidFile)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        let arguments = [
            try Run.which("pulseaudio"), "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit=yes",
            "--use-pid-file=no", "--disable-shm=yes",
            "-L", "module-native-protocol-unix socket=\(folder.path)/pulse.sock auth-anonymous=1",
            "-L", "module-null-sink sink_name=test_sink rate=48000 channels=2", "-L", "module-role-cork",
        ]
        let fallback = [
            "-L", "module-null-sink sink_name=second_sink rate=48000 channels=2", "-L", "module-always-sink",
        ]
        let log = folder.appendingPathComponent("pulse.log")
        p.arguments =
            ["-c", "\"$@\" >>'\(log.path)' 2>&1 & echo $! >'\(pidFile.path)'; wait", "sh"] + arguments
            + (withFallback ? fallback : [])
        let home = folder.appendingPathComponent("home")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment.merging([
            "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "XDG_CONFIG_HOME": home.path,
        ]) { $1 }
        // As in daemons.sh, the daemon gets no session bus.
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try Run.start(p)
        process = p
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if daemonPID == nil {
                daemonPID = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            if daemonPID != nil, try pactl(["info"]).status == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw TestSupportError("a private PulseAudio did not start: \(text)")
    }

    /// Kills the daemon at once (SIGKILL), as a crash would.
    public func kill() {
        if let pid = daemonPID { Foundation.kill(pid, SIGKILL) }
        daemonPID = nil
        if let p = process {
            // `sh` may never see its child end (test runner threads block SIGCHLD in children): do not wait long.
            let deadline = Date().addingTimeInterval(0.3)
            while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            Run.kill(p)
        }
        process = nil
    }

    /// Runs `pactl` against this server.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> Run.Result {
        try Run.command("pactl", arguments, environment: environment, timeout: 5)
    }

    /// Starts recording `sink`'s monitor into a file, waiting until data flows; returns the recorder.
    public func record(_ sink: String) throws -> Recorder {
        try Recorder(device: "\(sink).monitor", environment: environment)
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A `parec` recording of a monitor source (48 kHz stereo 16-bit) into a file. Safe from any thread.
public final class Recorder: @unchecked Sendable {
    private var process: Process?
    private let file: URL

    /// Starts `parec` on `device` and waits (at most 5 s) for the first recorded bytes.
    public init(device: String, environment: [String: String] = [:]) throws {
        file = Paths.scratch("rec").appendingPathComponent("rec.raw")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("parec"))
        p.arguments = ["--device=\(device)", "--rate=48000", "--channels=2", "--format=s16le", "--latency-msec=10"]
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardOutput = try FileHandle(forWritingTo: file)
        try Run.start(p)
        process = p
        let deadline = Date().addingTimeInterval(5)
        while seconds == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard seconds > 0 else { throw TestSupportError("\(device) delivers no data to parec") }
    }

    /// Seconds recorded so far.
    public var seconds: Double {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        return Double(size) / 4 / 48_000
    }

    /// The left channel recorded so far, as samples in -1...1 (recording goes on).
    public var samples: [Float] {
        let data = (try? Data(contentsOf: file)) ?? Data()
        return data.withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: s.count - 1, by: 2).map { Float(Int16(littleEndian: s[$0])) / 32768 }
        }
    }

    /// Stops recording and returns the left channel.
    public func stop() -> [Float] {
        if let p = process { Run.kill(p) }
        process = nil
        return samples
    }

    deinit {
        if let p = process { Run.kill(p) }
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }
}
