import Foundation
import Synchronization

/// Files whose names are not UTF-8: legal on Linux, where a name is bytes, but a Swift `String` cannot hold them.
/// Such a file is opened by its bytes once, with `O_PATH` (no I/O, so a FIFO does not block), and stands in the
/// rest of the program for `/proc/self/fd/N`, a path that names the same file, and for a folder what is in it
/// (`/proc/self/fd/N/name`). The registry keeps each name's bytes: to show it (decoded lossily), to give its
/// `file:` URL, and to find the files beside it. A name met twice is opened once; the descriptors stay open for the
/// process's life. Thread-safe: any thread.
public enum ByteNamedFiles {
    private struct State: Sendable {
        var pathsByName: [[UInt8]: String] = [:]
        var namesByPath: [String: [UInt8]] = [:]
        var raisedLimit = false
    }
    private static let state = Mutex(State())
    private static let prefix = "/proc/self/fd/"
    /// Linux's `O_PATH` (Glibc's module leaves it out: it is a GNU extension).
    private static let pathOnly: Int32 = 0o10_000_000

    /// The path that opens the file named `name` (relative to the working folder unless it starts with `/`):
    /// `name` itself when it is UTF-8, else `/proc/self/fd/N`; nil when no file of that name can be opened, or
    /// when opening it would leave fewer than `reserve` descriptors for the rest of the program (`errno` is then
    /// `EMFILE`).
    public static func path(for name: [UInt8]) -> String? {
        if let text = String(validating: name, as: UTF8.self) { return text }
        return state.withLock { s -> String? in
            if let known = s.pathsByName[name] { return known }
            var fd = open(name, flags: pathOnly | O_CLOEXEC)
            if fd < 0, errno != EMFILE { return nil }
            if fd < 0 || fd >= softLimit() - reserve, !s.raisedLimit {
                // A folder of many such names: as many descriptors as the system allows this process.
                s.raisedLimit = true
                var limit = rlimit()
                if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max
                {
                    limit.rlim_cur = limit.rlim_max
                    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
                }
                if fd < 0 { fd = open(name, flags: pathOnly | O_CLOEXEC) }
            }
            if fd >= softLimit() - reserve {
                close(fd)
                fd = -1
                errno = EMFILE
            }
            guard fd >= 0 else { return nil }
            let path = prefix + String(fd)
            s.pathsByName[name] = path
            s.namesByPath[path] = name
            return path
        }
    }

    /// How many descriptors the registry leaves for everything else (outputs, logs, sockets, the window, the
    /// files played).
    static let reserve = 128

    private static func softLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(Int32.max) }
        return Int(clamping: min(limit.rlim_cur, UInt(Int32.max)))
    }

    /// Whether `path` is a path this registry gave, or a path below one.
    public static func isByteNamed(_ path: String) -> Bool { registered(path) != nil }

    /// The bytes of the name `path` stands for: a registered path's name (with the rest of a path below it), else
    /// the path's own UTF-8.
    public static func nameBytes(of path: String) -> [UInt8] {
        guard let (name, rest) = registered(path) else { return Array(path.utf8) }
        return name + Array(rest.utf8)
    }

    /// The name to show for `path`: a registered path's name decoded lossily (each byte that is not UTF-8 shown as
    /// U+FFFD), else `path` unchanged.
    public static func shownName(of path: String) -> String {
        String(decoding: nameBytes(of: path), as: UTF8.self)
    }

    /// The names to show for every path given so far (for replacing them in messages).
    public static var shownNames: [String: String] {
        state.withLock { s in s.namesByPath.mapValues { String(decoding: $0, as: UTF8.self) } }
    }

    /// `text` with every path given so far (and any path below one) replaced by the name to show for it.
    public static func named(_ text: String) -> String {
        guard text.contains(prefix) else { return text }
        return shownNames.sorted { $0.key.count > $1.key.count }.reduce(text) {
            $0.replacingOccurrences(of: $1.key, with: $1.value)
        }
    }

    /// The path that opens the folder holding `path`, found by name (not `/proc/self/fd`, which a registered
    /// path's folder would be); nil when that folder cannot be opened.
    public static func folder(of path: String) -> String? {
        var name = nameBytes(of: path)
        while name.count > 1, name.last == 0x2F { name.removeLast() }
        guard let slash = name.lastIndex(of: 0x2F) else { return "." }
        return Self.path(for: slash == 0 ? [0x2F] : Array(name[..<slash]))
    }

    /// The `file:` URL of the file at `path`, by its name's bytes (relative to the working folder unless it
    /// starts with `/`; without `.` and `..` parts), each byte outside RFC 3986's path characters percent-encoded:
    /// a name that is not UTF-8 is a valid URL this way.
    public static func fileURL(of path: String) -> URL? {
        var name = nameBytes(of: path)
        if name.first != 0x2F {
            guard let cwd = getcwd(nil, 0) else { return nil }
            defer { free(cwd) }
            name =
                Array(UnsafeBufferPointer(start: cwd, count: strlen(cwd)).map { UInt8(bitPattern: $0) }) + [0x2F]
                + name
        }
        var parts: [ArraySlice<UInt8>] = []
        for part in name.split(separator: 0x2F) {
            if part == [0x2E] { continue }
            if part == [0x2E, 0x2E] {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@".utf8)
        let encoded = parts.map { part in
            part.map { kept.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        }
        return URL(string: "file:///" + encoded.joined(separator: "/"))
    }

    /// The bytes of the path of the `file:` URL `text` with its percent-encoding undone, or nil for another
    /// scheme, or a URL naming a host other than this one.
    public static func pathBytes(ofFileURL text: String) -> [UInt8]? {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "file",
            ["", "localhost"].contains(components.host?.lowercased() ?? "")
        else { return nil }
        var bytes: [UInt8] = []
        var input = Array(components.percentEncodedPath.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%"), input.count >= 2,
                let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// One entry of a folder: its name's bytes, the name to show and sort by (decoded lossily when it is not
    /// UTF-8), what it is, and how to open it.
    public struct FolderEntry: Sendable {
        /// The name's bytes.
        public var nameBytes: [UInt8]
        /// The name, decoded lossily when it is not UTF-8.
        public var name: String
        /// Whether it is a folder, a regular file (a link counts as what it leads to), or neither (a FIFO, a
        /// socket, a device, a broken link).
        public var isFolder: Bool, isRegularFile: Bool
        /// The path of the folder it is in, as given to `contentsOfFolder`.
        public var folder: String

        /// The path that opens the entry: the folder's path and the name, or, for a name that is not UTF-8, a
        /// path registered now; nil when it cannot be opened.
        public var path: String? {
            if let text = String(validating: nameBytes, as: UTF8.self) {
                return (folder as NSString).appendingPathComponent(text)
            }
            // Without "." parts and doubled slashes, as the folder's UTF-8 entries are named (`./` given: `b.wav`).
            let whole = ByteNamedFiles.nameBytes(of: folder) + [0x2F] + nameBytes
            var parts = whole.split(separator: 0x2F).filter { $0 != [0x2E] }.map(Array.init)
            if whole.first == 0x2F { parts.insert([], at: 0) }
            return ByteNamedFiles.path(for: Array(parts.joined(separator: [0x2F])))
        }
    }

    /// The entries of the folder at `path` (a registered path too), names that are not UTF-8 included, without `.`
    /// and `..`; nil when the folder cannot be read. Reads the folder only: nothing is opened.
    public static func contentsOfFolder(_ path: String) -> [FolderEntry]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var entries: [FolderEntry] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            var info = stat()
            let found =
                entry.pointee.d_name.0 == 0
                ? -1
                : withUnsafePointer(to: &entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: bytes.count + 1) {
                        fstatat(dirfd(dir), $0, &info, 0)
                    }
                }
            let kind = found == 0 ? info.st_mode & S_IFMT : 0
            entries.append(
                FolderEntry(
                    nameBytes: bytes, name: String(decoding: bytes, as: UTF8.self), isFolder: kind == S_IFDIR,
                    isRegularFile: kind == S_IFREG, folder: path))
        }
        return entries
    }

    /// The registered path `path` is or is below, as its name's bytes and the rest of `path` (empty or from "/").
    private static func registered(_ path: String) -> ([UInt8], Substring)? {
        guard path.hasPrefix(prefix) else { return nil }
        let tail = path.dropFirst(prefix.count)
        let digits = tail.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let rest = tail.dropFirst(digits.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        guard let name = state.withLock({ $0.namesByPath[prefix + digits] }) else { return nil }
        return (name, rest)
    }

    private static func open(_ name: [UInt8], flags: Int32) -> Int32 {
        (name + [0]).withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, flags) }
        }
    }
}
