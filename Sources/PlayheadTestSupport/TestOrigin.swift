import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test HTTP origin (`scripts/test-origin.py`) serving a folder on 127.0.0.1, with pacing and faults chosen
/// by query parameters. Stopped by PID when released. Safe from any thread.
public final class TestOrigin: @unchecked Sendable {
    private let process: Process
    private let output = Pipe()
    /// The port it listens on.
    public let port: Int

    private let log = LockedLines()

    /// Serves `folder`; with a `trace` (steps of seconds at bits per second, the last one holding), every body
    /// shares one link paced to it, counted from the first request. With `logQueries`, `requests` show each
    /// request's query string too.
    public convenience init(
        serving folder: URL, trace: [(seconds: Double, bitsPerSecond: Double)] = [], logQueries: Bool = false
    ) throws {
        try self.init(
            serving: folder, latencyTrace: trace.map { ($0.seconds, $0.bitsPerSecond, 0) }, logQueries: logQueries)
    }

    /// Serves `folder` with every body on one link paced to `latencyTrace` (steps of seconds at bits per second,
    /// the last one holding), each request answered after the latency of the step it was made in; `logQueries` as
    /// above.
    public init(
        serving folder: URL, latencyTrace trace: [(seconds: Double, bitsPerSecond: Double, latency: Double)],
        logQueries: Bool = false
    ) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Run.which("python3"))
        var arguments = [Paths.packageRoot.appendingPathComponent("scripts/test-origin.py").path, folder.path]
        if !trace.isEmpty {
            arguments.append(
                "--trace=" + trace.map { "\($0.seconds):\($0.bitsPerSecond):\($0.latency)" }.joined(separator: ","))
        }
        if logQueries { arguments.append("--log-queries") }
        // It ends with this process if this process crashes before stopping it.
        arguments.append("--parent=\(getpid())")
        process.arguments = arguments
        process.standardOutput = output
        try Run.start(process)
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let d = handle.availableData
            if d.isEmpty { throw TestSupportError("the test origin did not start") }
            line.append(d)
        }
        let lines = String(decoding: line, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let p = Int(lines[0]) else {
            throw TestSupportError("the test origin printed no port")
        }
        port = p
        let log = self.log
        log.append(lines.dropFirst().joined(separator: "\n"))
        let thread = Thread {
            while true {
                let d = handle.availableData
                if d.isEmpty { return }
                log.append(String(decoding: d, as: UTF8.self))
            }
        }
        thread.start()
    }

    /// The requests served so far, as "GET /path RANGE" lines, in order.
    public var requests: [String] { log.lines.filter { $0.hasPrefix("GET ") } }

    /// The bodies ended so far, as "SENT /path BYTES complete|aborted" lines (aborted: the client hung up).
    public var bodies: [String] { log.lines.filter { $0.hasPrefix("SENT ") } }

    /// The URL of `path` with `query` parameters (rate, stall_after, stall_for, status, first_byte_delay).
    public func url(_ path: String, _ query: [String: String] = [:]) -> URL {
        var c = URLComponents(string: "http://127.0.0.1:\(port)/\(path)")!
        if !query.isEmpty {
            c.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return c.url!
    }

    /// From now on every request (with `matching`, every one whose path and query contain it) answers `status`
    /// (for `seconds`, or until the next call; 0 ends it at once): the origin goes down. Returns once the origin
    /// has taken it.
    public func fail(status: Int, forSeconds seconds: Double? = nil, matching: String? = nil) throws {
        var query = ["status": "\(status)"]
        if let seconds { query["seconds"] = "\(seconds)" }
        if let matching { query["match"] = matching }
        let done = DispatchSemaphore(value: 0)
        let status = Locked<Int?>(nil)
        URLSession.shared.dataTask(with: url("_control", query)) { _, response, _ in
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 5) == .success, status.current == 204 else {
            throw TestSupportError("the test origin did not take /_control")
        }
    }

    deinit {
        Run.kill(process)
    }
}

/// Text arriving in pieces, read as whole lines; thread-safe.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func append(_ piece: String) { lock.withLock { text += piece } }

    var lines: [String] {
        lock.withLock { text.split(separator: "\n").map(String.init) }
    }
}
