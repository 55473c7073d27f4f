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
    /// entries skipped; a folder reached again through a link is not entered twice. A name that is not UTF-8 is
    /// played by its bytes (`ByteNamedFiles`) and sorted by its lossy name. The files are named from `path` as
    /// given (relative if it is). Reads the folders only. `unopened` counts the media files not listed because
    /// their names, not UTF-8, could not be opened (more of them than the process may hold open).
    static func mediaFiles(inFolder path: String) -> (files: [String], unopened: Int) {
        var seen = Set<[UInt64]>()
        var listing = (files: [String](), unopened: 0)
        collect(path, into: &listing, seen: &seen)
        // Named from the folder as given: `Music/01.mp3` for `Music`, `01.mp3` for `.`.
        return (listing.files.map(lexicallyNormalized), listing.unopened)
    }

    private static func collect(
        _ folder: String, into listing: inout (files: [String], unopened: Int), seen: inout Set<[UInt64]>
    ) {
        var info = stat()
        guard stat(folder, &info) == 0, seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted,
            let entries = ByteNamedFiles.contentsOfFolder(folder)
        else { return }
        let sorted = entries.filter { !$0.name.hasPrefix(".") }.sorted {
            $0.name.compare($1.name, options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
        for entry in sorted {
            if entry.isFolder, let path = entry.path {
                collect(path, into: &listing, seen: &seen)
            } else if entry.isRegularFile, mediaExtensions.contains((entry.name as NSString).pathExtension.lowercased())
            {
                if let path = entry.path { listing.files.append(path) } else { listing.unopened += 1 }
            }
        }
    }
}
