import Foundation

/// Runs commands for tests: the project's own binary, ffmpeg, pactl, parec. Safe from any thread.
public enum Run {
    /// What a finished command printed and returned.
    public struct Result: Sendable {
        /// The exit status (or the signal number when killed).
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
        /// Wall-clock seconds it took.
        public var seconds: Double
    }

    /// Runs `executable` with `arguments` (in `directory` when given), waiting at most `timeout` seconds (then
    /// killing it and every process it started: a shell's pipeline left running kept the output pipes open, and the
    /// test waited for them for good).
    @discardableResult
    public static func command(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60,
        in directory: URL? = nil
    ) throws -> Result {
        let p = Process()
        if let directory { p.currentDirectoryURL = directory }
        p.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : try which(executable))
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let start = Date()
        try p.run()
        let outData = PipeBuffers()
        let group = DispatchGroup()
        for (pipe, slot) in [(out, 0), (err, 1)] {
            group.enter()
            DispatchQueue.global().async {
                let d = pipe.fileHandleForReading.readDataToEndOfFile()
                outData.set(slot, d)
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if p.isRunning {
            for child in descendants(of: p.processIdentifier) { Foundation.kill(child, SIGKILL) }
            kill(p)
        }
        p.waitUntilExit()
        group.wait()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: outData.get(0), as: UTF8.self),
            stderr: String(decoding: outData.get(1), as: UTF8.self), seconds: Date().timeIntervalSince(start))
    }

    /// The processes `pid` started, and theirs, read from `/proc` (parent ids), deepest first.
    static func descendants(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [Int32: Int32] = [:]
        for name in entries {
            guard let child = Int32(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // "pid (comm) state ppid ...": the name may hold spaces and parentheses, so read after the last ")".
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
        }
        var found: [Int32] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found.reversed()
    }

    /// Ends a helper process with SIGKILL and reaps it. (Children of the test runner inherit its threads' blocked
    /// signals, so SIGTERM and SIGINT may never arrive.)
    public static func kill(_ p: Process) {
        guard p.isRunning else { return }
        Foundation.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    /// Starts a helper that outlives this call. A standard handle the caller did not set reads or writes
    /// /dev/null: the test process's own are pipes `swift test` reads until every holder closes them, so a helper
    /// left running after the test process crashed would keep `swift test` waiting for ever. It inherits no other
    /// descriptor either (`inheritNothing`).
    public static func start(_ p: Process) throws {
        Run.inheritNothing
        // Foundation's default is the test process's own handle, not nil.
        func inherited(_ handle: Any?, _ fd: Int32) -> Bool {
            guard let handle else { return true }
            return (handle as? FileHandle)?.fileDescriptor == fd
        }
        if inherited(p.standardInput, 0) { p.standardInput = FileHandle.nullDevice }
        if inherited(p.standardOutput, 1) { p.standardOutput = FileHandle.nullDevice }
        if inherited(p.standardError, 2) { p.standardError = FileHandle.nullDevice }
        try p.run()
    }

    /// Marks every descriptor the test process inherited (beyond standard input, output and error) close-on-exec,
    /// once: a helper it starts (a recorder, a stream writer) must not hold `swift test`'s own pipe, or a test
    /// process that crashes leaves `swift test` waiting forever for that pipe to close. Called before anything is
    /// started (`which`, `Paths.playheadBinary`).
    public static let inheritNothing: Void = {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in fds.compactMap({ Int32($0) }) where fd > 2 {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }()

    /// The full path of a program on PATH; throws when it is missing (tests then fail loudly).
    public static func which(_ name: String) throws -> String {
        Run.inheritNothing
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw TestSupportError("'\(name)' is not installed: run scripts/install-deps.sh")
    }
}

/// A failure of the test environment itself (a missing daemon or tool), with what to do about it.
public struct TestSupportError: Error, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

private final class PipeBuffers: @unchecked Sendable {
    private let lock = NSLock()
    private var slots = [Data(), Data()]
    func set(_ i: Int, _ d: Data) {
        lock.lock()
        slots[i] = d
        lock.unlock()
    }
    func get(_ i: Int) -> Data {
        lock.lock()
        defer { lock.unlock() }
        return slots[i]
    }
}
