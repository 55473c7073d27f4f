import Foundation
import PlayheadCore

/// Local playlist files, extended M3U (`#EXTM3U`, `#EXTINF` titles) and PLS, expanded into the media they name.
/// An `.m3u8` holding HLS tags (`#EXT-X-...`) is not a local playlist but a stream, and is left for the HLS client.
///
/// Pure value types and functions (reads files only): safe on any thread.
public enum PlaylistFile {
    /// One thing to play: a path or URL, with the title the playlist gave it.
    public struct Entry: Sendable, Hashable {
        /// A local path or an absolute URL.
        public var location: String
        /// The playlist's title for it (`#EXTINF`, `TitleN`), if any.
        public var title: String?

        /// An entry for `location`.
        public init(location: String, title: String? = nil) {
            self.location = location
            self.title = title
        }
    }

    /// The result of expanding inputs: what to play, and one message per problem (a missing entry, an empty,
    /// unreadable or self-including playlist), each naming the playlist and the entry.
    public struct Expansion: Sendable {
        /// The entries to play, in order.
        public var entries: [Entry] = []
        /// One line per problem, without a program prefix.
        public var problems: [String] = []
    }

    /// Whether `path` (a local file) is a playlist file to expand: `.m3u`/`.pls` by name, or an `.m3u8`/`.m3u`
    /// starting with `#EXTM3U` that has no HLS tags, or a file starting with `[playlist]`.
    public static func isPlaylist(_ path: String) -> Bool {
        guard !path.contains("://") || path.hasPrefix("file://") else { return false }
        // A name that is not UTF-8 (`/proc/self/fd/N`) by its own extension.
        let ext = (ByteNamedFiles.shownName(of: path) as NSString).pathExtension.lowercased()
        guard ["m3u", "m3u8", "pls"].contains(ext) || ext.isEmpty else { return false }
        guard let head = prefix(of: path, bytes: 64 * 1024) else { return ext == "m3u" || ext == "pls" }
        let text = head.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.hasPrefix("[playlist]") { return true }
        if head.contains("#EXT-X-") { return false }
        return ext == "m3u" || ext == "pls" || text.hasPrefix("#extm3u")
    }

    /// Expands `inputs` (paths and URLs): playlists are replaced by their entries (recursively, relative paths
    /// resolved against the playlist's folder), folders by their media files (`mediaFiles(inFolder:)`); local
    /// entries that do not exist are reported once and skipped.
    public static func expand(_ inputs: [String]) -> Expansion {
        var result = Expansion()
        var reported = Set<String>()
        for input in inputs {
            expand(input, from: nil, chain: [], into: &result, reported: &reported)
        }
        return result
    }

    private static func expand(
        _ location: String, from playlist: String?, chain: [String], into result: inout Expansion,
        reported: inout Set<String>, title: String? = nil
    ) {
        let location = fileURLSpelledInFull(location)
        let isURL = location.contains("://") && !location.hasPrefix("file://")
        let path = location.hasPrefix("file://") ? localPath(ofFileURL: location) : location
        // "file://" alone, "file://name.wav" (a host, no path) or another host's file: no file here to read (the
        // empty path was the working folder, "is a directory"; another host's path was read locally).
        if location.hasPrefix("file://"),
            path.isEmpty || !["", "localhost"].contains(URL(text: location)?.host?.lowercased() ?? "")
        {
            let message = "\(playlist.map { "\($0): " } ?? "")\(location): not a local file URL (file:///path)"
            if reported.insert(message).inserted { result.problems.append(message) }
            return
        }
        var isFolder: ObjCBool = false
        if !isURL, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            // A folder plays its media files, below it too, in the order a file manager shows them.
            let (files, unopened) = mediaFiles(inFolder: path)
            if unopened > 0 {
                let message =
                    "\(playlist.map { "\($0): " } ?? "")\(path): \(unopened) files named in another encoding than "
                    + "UTF-8 are left out (more than the process may hold open: see ulimit -n)"
                if reported.insert(message).inserted { result.problems.append(message) }
            }
            if files.isEmpty, unopened == 0 {
                let message = "\(playlist.map { "\($0): " } ?? "")\(path): no media files in the folder"
                if reported.insert(message).inserted { result.problems.append(message) }
            }
            result.entries += files.map { Entry(location: $0) }
            return
        }
        if isURL || !isPlaylist(path) {
            // A playlist's entry may name a file or a web address, not any protocol FFmpeg speaks (tcp, gopher,
            // ftp...): a playlist from elsewhere would reach hosts and ports the user never named.
            if isURL, let playlist, !["http", "https"].contains(URL(text: location)?.scheme?.lowercased() ?? "") {
                let message = "\(playlist): \(location): not a file or an http(s) URL (skipped)"
                if reported.insert(message).inserted { result.problems.append(message) }
                return
            }
            if !isURL, playlist != nil, !FileManager.default.fileExists(atPath: path) {
                let message = "\(playlist!): \(location): no such file (skipped)"
                if reported.insert(message).inserted { result.problems.append(message) }
                return
            }
            result.entries.append(Entry(location: isURL ? location : path, title: title))
            return
        }
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        if chain.contains(canonical) {
            // Named as the user and the lists named them: the list that closes the loop, unless it is this one.
            let through = chain.last == canonical ? "" : playlist.map { " (through \($0))" } ?? ""
            let message = "\(path): the playlist includes itself\(through); ignored"
            if reported.insert(message).inserted { result.problems.append(message) }
            return
        }
        let entries: [Entry]
        do {
            entries = try parse(contentsOf: path)
        } catch {
            result.problems.append(error.description)
            return
        }
        if entries.isEmpty {
            result.problems.append("\(path): the playlist is empty")
            return
        }
        for entry in entries {
            expand(
                entry.location, from: path, chain: chain + [canonical], into: &result, reported: &reported,
                title: entry.title)
        }
    }

    /// The entries of the playlist file at `path`, relative paths made absolute; throws a one-line error when it
    /// cannot be read or is not text.
    public static func parse(contentsOf path: String) throws(PlaybackError) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw PlaybackError(.io, source: path, reason: exists ? "cannot read the playlist" : "no such file")
        }
        guard data.count <= 16 << 20 else {
            throw PlaybackError(.parsing, source: path, reason: "not a text playlist (or larger than 16 MB)")
        }
        // Found by name: a playlist opened by its bytes is in its own folder, not in /proc/self/fd.
        let folderPath = ByteNamedFiles.folder(of: path) ?? (path as NSString).deletingLastPathComponent
        let text = String(data: data, encoding: .utf8) ?? decodeLines(data, folder: folderPath)
        let raw =
            text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().hasPrefix("[playlist]")
            ? parsePLS(text) : parseM3U(text)
        return raw.map { Entry(location: resolve($0.location, against: folderPath), title: $0.title) }
    }

    /// Entries of extended (or plain) M3U text, locations as written.
    public static func parseM3U(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var title: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let l = line.trimmingCharacters(in: .whitespaces)
            if l.isEmpty { continue }
            if l.hasPrefix("#EXTINF:") {
                // #EXTINF:<seconds>[ attributes],<title>
                title = l.firstIndex(of: ",").map {
                    String(l[l.index(after: $0)...]).trimmingCharacters(in: .whitespaces)
                }
                if title?.isEmpty == true { title = nil }
                continue
            }
            if l.hasPrefix("#") { continue }
            entries.append(Entry(location: l, title: title))
            title = nil
        }
        return entries
    }

    /// Entries of PLS text (`FileN=`, `TitleN=`), in the order of N.
    public static func parsePLS(_ text: String) -> [Entry] {
        var files: [Int: String] = [:]
        var titles: [Int: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let l = line.trimmingCharacters(in: .whitespaces)
            guard let eq = l.firstIndex(of: "=") else { continue }
            let key = l[..<eq].lowercased()
            let value = String(l[l.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("file"), let n = Int(key.dropFirst(4)) { files[n] = value }
            if key.hasPrefix("title"), let n = Int(key.dropFirst(5)) { titles[n] = value }
        }
        return files.keys.sorted().map { Entry(location: files[$0]!, title: titles[$0]) }
    }

    /// The text of a playlist that is not UTF-8, line by line: a line naming a file by bytes that are not UTF-8
    /// (a playlist written on this system, in its old encoding) names that file (`ByteNamedFiles`); any other is
    /// read as Latin-1 (a playlist from another system, whose files were renamed in UTF-8 on the way).
    private static func decodeLines(_ data: Data, folder: String) -> String {
        let folderName = ByteNamedFiles.nameBytes(of: folder)
        // A byte-order mark before Latin-1 lines (an editor's doing) is no part of the first line.
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            var bytes = Array(line)
            while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
            while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            let latin1 = String(bytes.map { Character(UnicodeScalar($0)) })
            // A PLS line `FileN=` names its file after the '='; an M3U line that is not a comment is the name.
            let isPLSFile = latin1.lowercased().range(of: #"^file[0-9]+="#, options: .regularExpression) != nil
            guard isPLSFile || bytes.first != UInt8(ascii: "#") else { return latin1 }
            let keyBytes = isPLSFile ? Array(bytes[...bytes.firstIndex(of: UInt8(ascii: "="))!]) : []
            let name = Array(bytes.dropFirst(keyBytes.count))
            let key = String(decoding: keyBytes, as: UTF8.self)
            // As written, then with Windows' '\\' as the separator.
            for candidate in [name, name.map { $0 == 0x5C ? 0x2F : $0 }] {
                let absolute = candidate.first == 0x2F ? candidate : folderName + [0x2F] + candidate
                if let path = ByteNamedFiles.path(for: absolute) { return key + path }
            }
            // No file of those bytes: Latin-1 when that names one (a list from another system whose files were
            // renamed in UTF-8), else the bytes as the messages show them (U+FFFD), for the "no such file" line.
            let text = String(latin1.dropFirst(keyBytes.count))
            let named = resolve(text, against: folder)
            let found = named.contains("://") || access(named, F_OK) == 0
            return key + (found ? text : String(decoding: name, as: UTF8.self))
        }
        return lines.joined(separator: "\n")
    }

    private static func prefix(of path: String, bytes: Int) -> String? {
        // A FIFO or standard input is never a playlist here: peeking at it would eat the media's first bytes.
        guard LocalFileCheck.isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: bytes) else { return nil }
        return String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)
    }
}
