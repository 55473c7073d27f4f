import Foundation

/// Null sinks loaded ahead of the tests that record them. A null sink with nothing connected renders in 2-second
/// blocks, so the first sound recorded from a new sink's monitor came 2 s after the sink was loaded: every
/// `TestSink` paid it (several minutes over the suite). The pool loads sinks a batch at a time, inside the
/// `TestSink()` call that finds it empty (never in the background during a test, where a sink appearing would be a
/// route change the test did not make), and keeps each running in short blocks with a keeper that records its
/// monitor into nothing at 100 ms latency, so a test's own recording gets data at once. Each sink serves one test
/// and is removed with it. Any thread.
enum SinkPool {
    struct Warm {
        let name: String
        let module: String
        /// Keeps the sink running in short blocks until the test's recording has started.
        let keeper: Process
    }

    /// Sinks loaded per batch.
    static let batch = 6
    private static let lock = NSLock()
    nonisolated(unsafe) private static var warm: [Warm] = []

    /// A loaded, running sink, loading a batch first when none is left.
    static func take() throws -> Warm {
        lock.lock()
        defer { lock.unlock() }
        if warm.isEmpty {
            for _ in 0..<batch {
                let (name, module) = try load()
                warm.append(Warm(name: name, module: module, keeper: try keeper(for: name)))
            }
        }
        return warm.removeFirst()
    }

    /// Loads a new null sink (48 kHz stereo) with a unique name; its name and module index.
    static func load() throws -> (name: String, module: String) {
        let name = "t_" + UUID().uuidString.prefix(8).lowercased()
        let r = try Run.command(
            "pactl", ["load-module", "module-null-sink", "sink_name=\(name)", "rate=48000", "channels=2"])
        guard r.status == 0 else { throw TestSupportError("cannot load a null sink: \(r.stderr)") }
        return (name, r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func keeper(for name: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("parec"))
        p.arguments = ["--device=\(name).monitor", "--rate=48000", "--channels=2", "--latency-msec=100"]
        // Nothing of the test process's output: `swift test` waits for its pipes to close.
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        if !exitHandlerSet {
            exitHandlerSet = true
            atexit { SinkPool.killKeepers() }
        }
        return p
    }

    nonisolated(unsafe) private static var exitHandlerSet = false

    /// The keepers of sinks no test took end with the test process (the sinks go with the sound server).
    private static func killKeepers() {
        for w in warm where w.keeper.isRunning { kill(w.keeper.processIdentifier, SIGKILL) }
    }
}
