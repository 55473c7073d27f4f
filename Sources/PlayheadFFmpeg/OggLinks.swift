import Foundation

/// The links of a chained Ogg file (RFC 3533 section 4: complete Ogg streams one after another, as files joined
/// end to end or a recorded internet radio, each song a link with its own logical streams), found from the page
/// headers alone. FFmpeg reads such a file as one stream whose time stamps start again at each link, takes the
/// last link's length for the whole file's and cannot seek across links; FFmpeg has no way to list the links, so
/// this reads the framing (the 27-byte page header and its segment table) and nothing of the codecs.
/// `OggChainSource` hands the links to FFmpeg one by one. A value type; built on the thread that opens the file.
struct OggLinks: Sendable, Equatable {
    /// Each link's bytes, in file order; they cover the file from the first page to the end of the last whole one.
    let ranges: [Range<Int64>]

    /// A page header: where it starts, whether it begins a logical stream, its stream's serial number, and where
    /// the next page starts.
    private struct Page {
        var start: Int64
        var beginsStream: Bool
        var serial: UInt32
        var end: Int64
    }

    /// The links of the Ogg file open as `fd`, `size` bytes long; nil when it is not an Ogg file or holds a single
    /// link (FFmpeg plays those as they are).
    ///
    /// Only a file whose last page belongs to none of the first link's streams (their serial numbers, which each
    /// link draws at random) is walked page by page: every other file is known for one link from its first and last
    /// pages, and is never read through (a large file on a network share would be, before it plays). A chain whose
    /// last link reuses a serial number of the first (a file joined to itself, an encoder's fixed numbers) is
    /// played by FFmpeg as it is.
    init?(fd: Int32, size: Int64) {
        guard let first = Self.page(fd, at: 0, size: size), first.beginsStream else { return nil }
        var serials: Set<UInt32> = []
        var next: Int64 = 0
        while let p = Self.page(fd, at: next, size: size), p.beginsStream {
            serials.insert(p.serial)
            next = p.end
        }
        guard let last = Self.lastPage(fd, size: size), !serials.contains(last.serial) else { return nil }
        // Walk every page: a link starts with a beginning-of-stream page that follows one that is not. Where no
        // page follows the last one (a song cut short inside a page, whose header promised more bytes than came;
        // damage) the walk goes on at the first page after that last page's header, and the first
        // beginning-of-stream page from there starts a link (what came between is the broken link's).
        var starts: [Int64] = [0]
        var previousBegins = true
        var end: Int64 = 0
        var offset: Int64 = 0
        var lastStart: Int64 = 0
        while offset < size {
            guard let p = Self.page(fd, at: offset, size: size) else {
                guard let found = Self.nextPage(fd, after: lastStart, size: size), found > lastStart else { break }
                (offset, lastStart, previousBegins) = (found, found, false)
                continue
            }
            if p.beginsStream && !previousBegins { starts.append(p.start) }
            previousBegins = p.beginsStream
            (end, offset, lastStart) = (p.end, p.end, p.start)
        }
        guard starts.count > 1 else { return nil }
        ranges = starts.indices.map { i in starts[i]..<(i + 1 < starts.count ? starts[i + 1] : end) }
    }

    /// The page whose header starts at `offset`; nil unless a whole page of version 0 is there. One read takes
    /// the header and the longest segment table.
    private static func page(_ fd: Int32, at offset: Int64, size: Int64) -> Page? {
        guard offset >= 0, offset + 27 <= size,
            let header = bytes(fd, at: offset, count: Int(min(27 + 255, size - offset))),
            header.starts(with: capturePattern), header[4] == 0
        else { return nil }
        let count = Int(header[26])
        guard header.count >= 27 + count else { return nil }
        let end = offset + 27 + Int64(count) + header[27..<(27 + count)].reduce(0) { $0 + Int64($1) }
        guard end <= size else { return nil }
        let serial = header[14..<18].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Page(start: offset, beginsStream: header[5] & 0x02 != 0, serial: serial, end: end)
    }

    /// Where the first whole page after `offset` starts, nil when none does.
    private static func nextPage(_ fd: Int32, after offset: Int64, size: Int64) -> Int64? {
        var from = offset + 1
        while from < size {
            guard let chunk = bytes(fd, at: from, count: Int(min(65_536, size - from))), chunk.count >= 4 else {
                return nil
            }
            for i in 0..<(chunk.count - 3) where chunk[i] == capturePattern[0] {
                if chunk[i..<(i + 4)].elementsEqual(capturePattern), page(fd, at: from + Int64(i), size: size) != nil {
                    return from + Int64(i)
                }
            }
            from += Int64(chunk.count - 3)
        }
        return nil
    }

    /// The last whole page of the file: the last capture pattern in its final 64 KiB (a page is at most 65,307
    /// bytes) that starts a page ending within the file.
    private static func lastPage(_ fd: Int32, size: Int64) -> Page? {
        let from = max(size - 65_536, 0)
        guard let tail = bytes(fd, at: from, count: Int(size - from)), tail.count >= 27 else { return nil }
        var i = tail.count - 27
        while i >= 0 {
            if tail[i] == capturePattern[0], tail[i..<(i + 4)].elementsEqual(capturePattern),
                let p = page(fd, at: from + Int64(i), size: size)
            {
                return p
            }
            i -= 1
        }
        return nil
    }

    /// "OggS", which starts every page.
    private static let capturePattern: [UInt8] = [0x4F, 0x67, 0x67, 0x53]

    /// `count` bytes of `fd` from `offset`; nil when fewer are there.
    private static func bytes(_ fd: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return buffer
    }
}
