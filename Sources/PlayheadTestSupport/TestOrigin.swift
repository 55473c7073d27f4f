import Foundation

/// The test HTTP origin (`scripts/test-origin.py`) serving a folder on 127.0.0.1, with pacing and faults chosen
/// by query parameters. Stopped by PID when released. Safe from any thread.
public final class TestOrigin: @unchecked Sendable {
    private let process: Process
    private let output = Pipe()
    /// The port it listens on.
    public let port: Int

    /// Serves `folder`.
    public init(serving folder: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Run.which("python3"))
        process.arguments = [Paths.packageRoot.appendingPathComponent("scripts/test-origin.py").path, folder.path]
        process.standardOutput = output
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let d = handle.availableData
            if d.isEmpty { throw TestSupportError("the test origin did not start") }
            line.append(d)
        }
        guard let p = Int(String(decoding: line, as: UTF8.self).split(separator: "\n")[0]) else {
            throw TestSupportError("the test origin printed no port")
        }
        port = p
    }

    /// The URL of `path` with `query` parameters (rate, stall_after, stall_for, status, first_byte_delay).
    public func url(_ path: String, _ query: [String: String] = [:]) -> URL {
        var c = URLComponents(string: "http://127.0.0.1:\(port)/\(path)")!
        if !query.isEmpty {
            c.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return c.url!
    }

    deinit {
        Run.kill(process)
    }
}
