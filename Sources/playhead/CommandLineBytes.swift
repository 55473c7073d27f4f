import Foundation

/// The command line as the kernel gave it: bytes. A file name that is not UTF-8 (legal on Linux) cannot be a
/// Swift `String`, so such an input is opened by its bytes and played through `/proc/self/fd/N`, a path that
/// names the same file; messages show its name decoded lossily. `-` is standard input. Main thread, at start.
enum CommandLineBytes {
    /// The arguments (without the program name), with inputs that are not UTF-8 replaced by an openable path,
    /// the lossy name to show for each such path, and its `file:` URL with the name's bytes percent-encoded (for
    /// Now Playing's `xesam:url`, which said `file:///proc/self/fd/N`).
    static func arguments() -> (arguments: [String], shownNames: [String: String], fileURLs: [String: URL]) {
        var arguments: [String] = []
        var shown: [String: String] = [:]
        var urls: [String: URL] = [:]
        let argv = CommandLine.unsafeArgv
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = argv[i] else { continue }
            let bytes = UnsafeBufferPointer(start: raw, count: strlen(raw)).map { UInt8(bitPattern: $0) }
            if let text = String(validating: bytes, as: UTF8.self) {
                arguments.append(text)
                continue
            }
            let lossy = String(decoding: bytes, as: UTF8.self)
            let fd = open(raw, O_RDONLY)
            guard fd >= 0 else {
                // Not openable: the lossy name gets the usual one-line error ("no such file", "permission denied").
                arguments.append(lossy)
                continue
            }
            let path = "/proc/self/fd/\(fd)"
            arguments.append(path)
            shown[path] = lossy
            urls[path] = fileURL(bytes)
        }
        return (arguments, shown, urls)
    }

    /// The `file:` URL of the path `bytes` (relative to the working directory unless it starts with `/`), each
    /// byte outside RFC 3986's path characters percent-encoded: a name that is not UTF-8 is a valid URL this way.
    static func fileURL(_ bytes: [UInt8]) -> URL? {
        var path = bytes
        if path.first != UInt8(ascii: "/") {
            guard let cwd = getcwd(nil, 0) else { return nil }
            defer { free(cwd) }
            path =
                Array(UnsafeBufferPointer(start: cwd, count: strlen(cwd)).map { UInt8(bitPattern: $0) }) + [0x2F] + path
        }
        // Without its "." and ".." parts, as a UTF-8 path's URL is (`standardizedFileURL`).
        var parts: [ArraySlice<UInt8>] = []
        for part in path.split(separator: 0x2F) {
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
}
