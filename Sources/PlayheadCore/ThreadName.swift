#if canImport(Glibc)
    import Glibc
#endif

/// Names the calling thread for the kernel (`/proc/self/task/*/comm`, `top -H`, `gdb`), which Foundation's
/// `Thread.name` does not reach on Linux. At most 15 bytes are kept. Any thread, for itself.
public enum ThreadName {
    /// Gives the calling thread `name` (cut to 15 bytes) by writing `/proc/thread-self/comm`; silently does nothing
    /// where that file cannot be written.
    public static func set(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        var bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
