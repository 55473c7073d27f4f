import Foundation

/// A file a program writes as its output (a WAV export, an event log), opened as Unix tools open theirs and never
/// at the cost of what the user keeps: written in place (`open(2)`, never a new file renamed over it), so a symlink
/// is followed, a FIFO, `/dev/null` or a terminal stay what they are and a file keeps its owner and mode; an
/// existing file is overwritten only when it is empty or of the kind written (a previous export, a previous log),
/// never a file of another kind; a FIFO no program reads is an error after `readerWait`, not a wait for ever. Any
/// thread (the open waits at most `readerWait`).
public enum OutputFile {
    /// Seconds a FIFO's reader has to open it.
    public static let readerWait = 3.0

    /// Why the output cannot be opened, in one line that names it.
    public struct OpenError: Error, CustomStringConvertible, Sendable {
        /// The line.
        public var description: String
    }

    /// Opens `path` for writing (see the type); `isOurs` tells, from an existing file's first 16 bytes, whether
    /// it is of the kind written (`kind` names that kind in the error: "a WAV file"). Returns the descriptor (close
    /// it) and whether it can seek (a regular file, truncated to empty).
    public static func open(
        _ path: String, kind: String, isOurs: (Data) -> Bool
    ) throws(OpenError) -> (fd: Int32, seekable: Bool) {
        try checkExisting(path, kind: kind, isOurs: isOurs)
        // A name the command line gave in bytes that are not UTF-8 reaches here decoded lossily: creating it would
        // make a file of another name (U+FFFD where those bytes were).
        if path.contains("\u{FFFD}"), access(path, F_OK) != 0 {
            throw OpenError(description: "\(path): a new file's name must be UTF-8 here (the name given is not)")
        }
        // A FIFO's reader may be starting beside the command (`tail -f FIFO & playhead ...`): it has a few
        // seconds to open it, then the command is told, instead of waiting for ever in `open`.
        var fd = Foundation.open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
        let deadline = MonotonicClock.now() + readerWait
        while fd < 0, errno == ENXIO, MonotonicClock.now() < deadline {
            usleep(20_000)
            fd = Foundation.open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "a pipe no program reads" : String(cString: strerror(errno))
            throw OpenError(description: "\(path): \(reason)")
        }
        // Writes block as they should (a pipe's reader takes its time).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var st = stat()
        let regular = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if regular { _ = ftruncate(fd, 0) }
        return (fd, regular)
    }

    /// Throws when `path` is a file that is neither empty nor of the kind written: it is not overwritten.
    public static func checkExisting(_ path: String, kind: String, isOurs: (Data) -> Bool) throws(OpenError) {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return }
        let head = FileHandle(forReadingAtPath: path).map { h in
            defer { try? h.close() }
            return (try? h.read(upToCount: 16)) ?? Data()
        }
        guard let head, isOurs(head) else {
            throw OpenError(description: "\(path): exists and is not \(kind); not overwritten")
        }
    }

    /// Throws what opening `path` for writing later would fail with, where that can be told without opening it
    /// (an open would create the file, or hand a FIFO's reader an end): a folder, a folder that does not exist or
    /// cannot be written, a new file's name that is not UTF-8. An output opened only once playback starts (the WAV
    /// export) is checked with it first, so that the command's usage error comes before anything plays.
    public static func checkWritable(_ path: String) throws(OpenError) {
        var st = stat()
        if stat(path, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw OpenError(description: "\(path): Is a directory") }
            if access(path, W_OK) != 0 { throw OpenError(description: "\(path): \(String(cString: strerror(errno)))") }
            return
        }
        if path.contains("\u{FFFD}") {
            throw OpenError(description: "\(path): a new file's name must be UTF-8 here (the name given is not)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let parent = folder.isEmpty ? "." : folder
        guard stat(parent, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw OpenError(description: "\(path): No such file or directory")
        }
        if access(parent, W_OK | X_OK) != 0 {
            throw OpenError(description: "\(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether `a` and `b` name the same existing file (one device and inode: a link, another spelling).
    public static func isSameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat()
        var sb = stat()
        return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// Writes all of `data` to `fd`, going on after a short write or an interrupted one; the error's text
    /// (`strerror`) when it fails.
    public static func write(_ data: Data, to fd: Int32) -> String? {
        data.withUnsafeBytes { raw -> String? in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += n
            }
            return nil
        }
    }
}
