import Foundation

extension PlaylistFile {
    /// The extensions of the media files a folder given to play contributes (lower case): sound and video
    /// containers FFmpeg reads. Pictures (cover art), text, cue sheets and playlists beside them are left out.
    static let mediaExtensions: Set<String> = [
        "aac", "ac3", "aif", "aifc", "aiff", "alac", "amr", "ape", "au", "caf", "dts", "eac3", "flac", "m4a", "m4b",
        "mka", "mp2", "mp3", "mpc", "oga", "ogg", "opus", "spx", "tta", "wav", "weba", "wma", "wv",
        "3g2", "3gp", "asf", "avi", "divx", "f4v", "flv", "m2ts", "m2v", "m4v", "mjpeg", "mkv", "mov", "mp4", "mpeg",
        "mpg", "mts", "mxf", "nut", "ogm", "ogv", "rm", "rmvb", "ts", "vob", "webm", "wmv", "y4m",
    ]

    /// The media files in the folder at `path` and the folders below it, as a file manager lists them: names in
    /// natural order (track 2 before track 10, case ignored), each subfolder's files where its name falls; hidden
    /// entries skipped; a folder reached again through a link is not entered twice. Reads the folders only.
    static func mediaFiles(inFolder path: String) -> [String] {
        var seen = Set<String>()
        var files: [String] = []
        collect(URL(fileURLWithPath: path), into: &files, seen: &seen)
        return files
    }

    private static func collect(_ folder: URL, into files: inout [String], seen: inout Set<String>) {
        guard seen.insert(folder.resolvingSymlinksInPath().path).inserted,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return }
        let sorted = names.filter { !$0.hasPrefix(".") }.sorted {
            $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
        for name in sorted {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                collect(url, into: &files, seen: &seen)
            } else if mediaExtensions.contains(url.pathExtension.lowercased()) {
                files.append(url.path)
            }
        }
    }
}
