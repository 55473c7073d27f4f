import Foundation
import PlayheadTestSupport

/// A `playhead` process started for an audio session test, with its `--log-json` events. Test thread.
final class PlayheadProcess {
    let process = Process()
    let log: URL
    private let errFile: URL

    /// Starts `playhead --log-json=... arguments` with `environment` added.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let dir = Paths.scratch("session")
        log = dir.appendingPathComponent("events.jsonl")
        errFile = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        process.arguments = ["--log-json=\(log.path)"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errFile)
        process.standardInput = FileHandle.nullDevice
        try Run.start(process)
    }

    /// The events logged so far.
    var events: [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The names of the events logged so far, without HLS segment noise.
    var names: [String] { events.compactMap { $0["event"] as? String } }

    /// What it printed on stderr.
    var stderr: String { (try? String(contentsOf: errFile, encoding: .utf8)) ?? "" }

    /// Waits until an event named `name` (the `count`-th one) is logged; false after `timeout` seconds.
    func waitFor(_ name: String, count: Int = 1, timeout: Double = 10) -> Bool {
        waitUntil(timeout: timeout) { self.names.filter { $0 == name }.count >= count }
    }

    /// Waits for the process to end; its status, or nil if it still runs after `timeout` seconds.
    func waitForExit(timeout: Double = 30) -> Int32? {
        guard waitUntil(timeout: timeout, { !self.process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    deinit { Run.kill(process) }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held.
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// A `pacat` playing silence with `media.role=phone` on `sink`: a call, for `module-role-cork`.
func startPhoneStream(on sink: String, environment: [String: String] = [:]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try Run.which("pacat"))
    p.arguments = ["--property=media.role=phone", "--device=\(sink)", "/dev/zero"]
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try Run.start(p)
    return p
}

/// Seconds of `samples` (48 kHz) from `start` seconds on during which sound is heard.
func audibleSeconds(_ samples: [Float], from start: Double, to end: Double? = nil) -> Double {
    let a = min(samples.count, max(0, Int(start * 48_000)))
    let b = min(samples.count, max(a, Int((end ?? Double(samples.count) / 48_000) * 48_000)))
    return AudioAnalysis.audibleSeconds(Array(samples[a..<b]))
}
