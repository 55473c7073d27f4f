import Foundation

/// A chained Ogg file (`OggLinks`) read link by link, each link a part of a chained input: FFmpeg opens every link
/// as a whole Ogg file of its own, so it knows that link's length and seeks within it, and the time stamps of each
/// link are moved onto one timeline that goes on from the links before it. The whole file's length is the sum of
/// the links' (FFmpeg took the last link's), and a seek goes to the link that holds the target first
/// (`moveToLink(containing:)`, then `MediaInput.restartPart`).
///
/// Owned by the `MediaInput` that reads it, on that input's thread; opening it probes every link (a few header
/// pages each) on the caller's thread.
public final class OggChainSource: ChainedByteSource, TimestampAdjustingSource {
    /// One link on the chain's timeline.
    public struct Link: Sendable, Equatable {
        /// Its bytes in the file.
        public var bytes: Range<Int64>
        /// Seconds added to its own time stamps to put them on the chain's timeline (the first link's).
        public var offset: Double
        /// Where it starts on the chain's timeline, in seconds.
        public var start: Double
        /// How long it plays, in seconds.
        public var duration: Double
    }

    /// The links, in file order.
    public let links: [Link]
    private let fd: Int32
    /// The link read now, and its bytes.
    private var current = 0
    private var part: FileRangeSource

    /// The chain of the local Ogg file at `path`, without the links FFmpeg cannot open or that hold no sound; nil
    /// when the file is not a chained Ogg file (FFmpeg plays it as it is), no link opens, or the
    /// file was written to within the last 2 s: a recording still being made is read whole by FFmpeg, which
    /// follows it as it grows (`FileFollower`), where a chain would stop at the links found at the open.
    public init?(path: String) {
        // Only a regular file is opened here: opening a FIFO waits for its writer, and closing it again cost the
        // writer its pipe (the player then waited for another writer for good).
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, now.tv_sec - info.st_mtim.tv_sec >= 2,
            let found = OggLinks(fd: fd, size: Int64(info.st_size))
        else {
            close(fd)
            return nil
        }
        var links: [Link] = []
        var end = 0.0
        for range in found.ranges {
            // The link opened on its own: its first time stamp and its length, as FFmpeg finds them in a whole file.
            // A link FFmpeg cannot open, or that holds no sound (a song cut short in its headers, damage), is
            // left out: the songs around it play (FFmpeg alone gave up at it).
            guard let input = try? MediaInput(source: FileRangeSource(fd: fd, bytes: range), name: path),
                input.duration.isNumeric, input.duration.seconds > 0
            else { continue }
            let first = input.startSeconds
            if links.isEmpty { end = first }
            links.append(Link(bytes: range, offset: end - first, start: end, duration: input.duration.seconds))
            end += input.duration.seconds
        }
        guard !links.isEmpty else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.links = links
        part = FileRangeSource(fd: fd, bytes: links[0].bytes)
    }

    deinit { close(fd) }

    /// Where the chain ends on its timeline, in seconds: the first link's first time stamp and every link's length.
    public var end: Double { links.last.map { $0.start + $0.duration } ?? 0 }

    /// Makes the link that holds `seconds` (on the chain's timeline) the one read, from its start; the caller opens
    /// it as a new part (`MediaInput.restartPart`) and seeks within it. Returns that link.
    public func moveToLink(containing seconds: Double) -> Link {
        current = links.lastIndex { $0.start <= seconds } ?? 0
        part = FileRangeSource(fd: fd, bytes: links[current].bytes)
        return links[current]
    }

    /// Reads on in the current link; 0 at its end (the part's end).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try part.read(into: buffer) }

    /// Moves to `offset` in the current link.
    public func seek(to offset: Int64) -> Bool { part.seek(to: offset) }

    /// The current link's size: FFmpeg sees each link as a file of its own.
    public var size: Int64? { part.size }

    /// Goes on to the next link, from its first byte; false after the last.
    public func beginNextPart() -> Bool {
        guard current + 1 < links.count else { return false }
        current += 1
        part = FileRangeSource(fd: fd, bytes: links[current].bytes)
        return true
    }

    /// Each link is a stream of its own: its decoding starts afresh.
    public var partsAreSeparateStreams: Bool { true }

    /// The current link's offset onto the chain's timeline.
    public func timestampOffset(position: Int64, seconds: Double) -> Double { links[current].offset }
}

/// A byte range of an open file, read as a whole file: one link of a chained Ogg file, opened to learn its length.
/// Used by the thread that opens it.
private final class FileRangeSource: ByteSource {
    private let fd: Int32
    private let bytes: Range<Int64>
    private var position: Int64 = 0

    init(fd: Int32, bytes: Range<Int64>) {
        self.fd = fd
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(Int64(buffer.count), bytes.upperBound - bytes.lowerBound - position)
        guard n > 0 else { return 0 }
        let got = pread(fd, buffer.baseAddress, Int(n), off_t(bytes.lowerBound + position))
        guard got >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        position += Int64(got)
        return got
    }

    func seek(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= bytes.upperBound - bytes.lowerBound else { return false }
        position = offset
        return true
    }

    var size: Int64? { bytes.upperBound - bytes.lowerBound }
}
