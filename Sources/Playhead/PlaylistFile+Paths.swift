import Foundation

/// How a playlist's and the command line's locations become paths: `file:` URLs, relative entries, `..` steps.
extension PlaylistFile {
    /// `location` with a `file:` URL spelled as the rest of the code reads it: `file:///path` for RFC 8089's
    /// `file:/path` (no authority) and a scheme in capitals; anything else as it is.
    static func fileURLSpelledInFull(_ location: String) -> String {
        guard location.count > 5, location.prefix(5).lowercased() == "file:" else { return location }
        let rest = location.dropFirst(5)
        if rest.hasPrefix("//") { return "file:" + rest }
        return rest.hasPrefix("/") ? "file://" + rest : location
    }

    /// The local path of the `file:` URL `location`; a name that is not UTF-8 (percent-encoded bytes) by the path
    /// that opens it (`ByteNamedFiles`), or lossily when there is no such file.
    static func localPath(ofFileURL location: String) -> String {
        if let bytes = ByteNamedFiles.pathBytes(ofFileURL: location), !bytes.isEmpty,
            String(validating: bytes, as: UTF8.self) == nil
        {
            return ByteNamedFiles.path(for: bytes) ?? String(decoding: bytes, as: UTF8.self)
        }
        return URL(text: location)?.path ?? location
    }

    /// `location` (an entry of a playlist in `folder`) as a path or URL: a relative path joined to the folder as
    /// the playlist was named (relative if it was: the user named the list, so its entries are named from there).
    static func resolve(_ location: String, against folder: String) -> String {
        let location = fileURLSpelledInFull(location)
        if location.contains("://") {
            return location.hasPrefix("file://") ? localPath(ofFileURL: location) : location
        }
        // A playlist written on Windows separates folders with '\\' (a name may hold one here: tried as written
        // first).
        let literal = joined(location, to: folder)
        guard location.contains("\\") else { return literal }
        let windows = joined(location.replacingOccurrences(of: "\\", with: "/"), to: folder)
        return access(literal, F_OK) != 0 && access(windows, F_OK) == 0 ? windows : literal
    }

    /// The local path `location` names in `folder`.
    static func joined(_ location: String, to folder: String) -> String {
        if location.hasPrefix("/") { return location }
        if location.hasPrefix("~/") {
            // The home folder as the shell takes it: `$HOME`, else the account's.
            let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            return (home ?? NSHomeDirectory()) + location.dropFirst()
        }
        return lexicallyNormalized((folder as NSString).appendingPathComponent(location))
    }

    /// `path` without `.` parts and doubled slashes, relative paths kept relative ("." when nothing is left).
    /// A `..` stays: after a link it leads to the link target's parent, which only the file system knows
    /// (`resolvingParentSteps`).
    static func lexicallyNormalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// `path` with its `..` steps taken as the kernel takes them: the part up to the last `..` that follows a
    /// name is resolved by the file system (`realpath`: a `..` after a link leads to the parent of the link's
    /// target, not back to the link's folder, as a URL's dot segments would). Unchanged without such a step, or
    /// when that part does not exist. Any thread.
    public static func resolvingParentSteps(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.lastIndex(of: ".."),
            parts[..<last].contains(where: { !$0.isEmpty && $0 != "." && $0 != ".." })
        else { return path }
        guard let real = realpath(parts[...last].joined(separator: "/"), nil) else { return path }
        defer { free(real) }
        let bytes = Array(UnsafeBufferPointer(start: real, count: strlen(real)).map { UInt8(bitPattern: $0) })
        guard let base = ByteNamedFiles.path(for: bytes) else { return path }
        let rest = parts[(last + 1)...].joined(separator: "/")
        return rest.isEmpty ? base : (base as NSString).appendingPathComponent(rest)
    }
}
