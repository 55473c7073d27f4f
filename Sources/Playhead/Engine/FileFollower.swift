import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Follows a local file that is still being written while it plays (a recording, a download), as `tail -f` does:
/// at the end of what was written, playback waits for more instead of ending, until the file stops growing.
///
/// A file counts as being written when it grew since it was opened or was modified within the last `idle`
/// seconds; a finished file ends at once. Growth is learned from inotify (`IN_MODIFY`), not by polling. Owned by
/// the demux thread.
final class FileFollower {
    private let path: String
    private let openedAt: Date
    private let sizeAtOpen: Int64
    private var fd: Int32 = -1
    /// The file's size when the demuxer last came to the end of what it could read, nil before.
    private var sizeAtEnd: Int64?

    /// A follower for `location` when it is a local regular file; nil otherwise (a URL, a pipe, a device).
    init?(location: String) {
        if location.contains("://") && !location.hasPrefix("file://") { return nil }
        let path = location.hasPrefix("file://") ? (URL(string: location)?.path ?? location) : location
        guard let (size, _) = Self.status(path) else { return nil }
        self.path = path
        openedAt = Date()
        sizeAtOpen = size
    }

    deinit { if fd >= 0 { close(fd) } }

    /// At the end of the bytes read (`consumed`): waits while the file is being written for it to grow past them,
    /// giving up after `idle` seconds without growth, or as soon as `cancelled` says so (checked every 100 ms).
    /// True when there is more to read. A file not being written ends at once, even when the demuxer stopped
    /// short of its last byte. Demux thread.
    func waitForMore(beyond consumed: Int64, idle: Double, cancelled: () -> Bool) -> Bool {
        guard let (size, modified) = Self.status(path) else { return false }
        guard size > sizeAtOpen || modified > openedAt || -modified.timeIntervalSinceNow < idle else { return false }
        // Bytes past the demuxer's position send it back to read once per size of the file: a demuxer that ends
        // short of the file's end (an MP4's index after its media data) must not be sent back again and again.
        let seen = sizeAtEnd
        sizeAtEnd = size
        if size > consumed, size != seen { return true }
        if fd < 0 {
            fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if fd >= 0, inotify_add_watch(fd, path, UInt32(IN_MODIFY)) < 0 {
                close(fd)
                fd = -1
            }
        }
        guard fd >= 0 else { return false }
        let deadline = Date().addingTimeInterval(idle)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline, !cancelled() {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            while read(fd, &buffer, buffer.count) > 0 {}
            if let (now, _) = Self.status(path), now > max(size, consumed) {
                sizeAtEnd = now
                return true
            }
        }
        return false
    }

    private static func status(_ path: String) -> (size: Int64, modified: Date)? {
        guard let a = try? FileManager.default.attributesOfItem(atPath: path),
            a[.type] as? FileAttributeType == .typeRegular,
            let size = (a[.size] as? NSNumber)?.int64Value, let modified = a[.modificationDate] as? Date
        else { return nil }
        return (size, modified)
    }
}
