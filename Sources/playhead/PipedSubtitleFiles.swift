import Foundation
import Synchronization

/// `--sub-file` given a pipe or a FIFO (`--sub-file=<(cat Film.srt)`, as mpv reads it): read once, whole, into a
/// private copy that every entry opens (a pipe can be read once, and the library opens an item's subtitle files at
/// each item's open; it takes regular files only). The copies live in a folder of their own, removed when the
/// session ends. Main actor; the reading runs on a thread of its own.
@MainActor final class PipedSubtitleFiles {
    /// The most read from one pipe (a film's subtitles are well under 1 MB).
    nonisolated static let limit = 32 << 20

    /// The copy of each pipe read, by the path given.
    private(set) var copies: [String: String] = [:]
    private var folder: String?
    /// Set by `stop`: a read in progress gives up.
    private nonisolated let stopped = Mutex(false)

    /// Reads each of `paths` that is a pipe or a FIFO, waiting at most `timeout` seconds for each one's data to
    /// end (or until `stop`); returns one message for each that could not be read (it is left out).
    func read(_ paths: [String], timeout: Double) async -> [String] {
        var problems: [String] = []
        for path in paths where copies[path] == nil && Self.isPipe(path) {
            let result = await withCheckedContinuation { (c: CheckedContinuation<Result<Data, Failure>, Never>) in
                Thread.detachNewThread { [self] in
                    c.resume(returning: Self.drain(path, timeout: timeout) { stopped.withLock { $0 } })
                }
            }
            switch result {
            case .success(let data):
                guard let folder = makeFolder() else {
                    problems.append("\(path): cannot keep what the pipe gave (no private folder)")
                    continue
                }
                let copy = "\(folder)/\(copies.count)-\((path as NSString).lastPathComponent)"
                guard FileManager.default.createFile(atPath: copy, contents: data) else {
                    problems.append("\(path): cannot keep what the pipe gave in \(copy)")
                    continue
                }
                copies[path] = copy
            case .failure(let failure):
                problems.append("\(path): \(failure.reason); playing without it")
            }
        }
        return problems
    }

    /// Gives up a read in progress (the user quits). Any thread.
    nonisolated func stop() { stopped.withLock { $0 = true } }

    /// Removes the copies and their folder.
    func remove() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
        folder = nil
        copies = [:]
    }

    struct Failure: Error {
        var reason: String
    }

    /// Whether `path` is a pipe or a FIFO (following a link: `/dev/fd/63` names the pipe of `<(...)`).
    nonisolated static func isPipe(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO
    }

    private func makeFolder() -> String? {
        if let folder { return folder }
        var template = Array((NSTemporaryDirectory() + "/playhead-subtitles-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        folder = String(cString: made)
        return folder
    }

    /// What the pipe at `path` gives until its writer closes it, waiting for a writer (a FIFO's may come later) at
    /// most `timeout` seconds without a byte. The open does not wait for a writer (it would hold the session, even
    /// through a quit); until one has come and gone, Linux's `poll` reports no hang-up, only data.
    nonisolated private static func drain(
        _ path: String, timeout: Double, stopping: @Sendable () -> Bool
    ) -> Result<Data, Failure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var deadline = Date().addingTimeInterval(timeout)
        var hungUp = false
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: buffer[..<n])
                if data.count > limit { return .failure(Failure(reason: "more than 32 MiB came through the pipe")) }
                deadline = Date().addingTimeInterval(timeout)
                continue
            }
            if n < 0, errno != EAGAIN, errno != EINTR {
                return .failure(Failure(reason: String(cString: strerror(errno))))
            }
            // No writer now (0) after one came and went: the end.
            if n == 0, hungUp {
                return data.isEmpty ? .failure(Failure(reason: "nothing came through the pipe")) : .success(data)
            }
            if stopping() { return .failure(Failure(reason: "cancelled")) }
            if Date() > deadline {
                let seconds = timeout == timeout.rounded() ? "\(Int(timeout)) s" : "\(timeout) s"
                return .failure(
                    Failure(
                        reason: data.isEmpty
                            ? "nothing came through the pipe within \(seconds)" : "no byte for \(seconds)"))
            }
            // A tenth of a second at a time, to hear a quit.
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0, poller.revents & Int16(POLLHUP) != 0 { hungUp = true }
        }
    }
}
